/** What this process keeps of a session whose lease it holds: which people's messages it handed to its rounds. */

/** A session this process holds. */
export interface Owned {
  /** Messages at or below this id were seen when the lease was taken (or long ago). */
  floor: number;
  /** Messages handed to the coordinator, by id, with when (clock ms). */
  handed: Map<number, number>;
  /** Paused: its rounds were stopped once; the lease is kept for `!continue`. */
  paused: boolean;
}

/** Records a message as handed to the coordinator; false when it already was (the poll and the gateway race). */
export function markHanded(owned: Owned, messageId: number, now: Date): boolean {
  if (owned.handed.has(messageId)) return false;
  owned.handed.set(messageId, now.getTime());
  return true;
}

/** Forgets the messages handed up to `until` (ms): the rounds they went to stopped, so they are handed again. */
export function forgetHandedUntil(owned: Owned, until: number): void {
  for (const [messageId, handedAt] of owned.handed) if (handedAt <= until) owned.handed.delete(messageId);
}
