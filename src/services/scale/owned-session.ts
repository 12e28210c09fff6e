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

/** Handed ids older than this are folded into the floor: no commit lands that much out of order. */
const SETTLED_MS = 60_000;

/** Folds the messages handed long enough ago into the floor (the pass no longer needs to name them). */
export function foldSettled(owned: Owned, now: Date): void {
  const settled = now.getTime() - SETTLED_MS;
  for (const [id, at] of owned.handed) {
    if (at >= settled) continue;
    owned.floor = Math.max(owned.floor, id);
    owned.handed.delete(id);
  }
}

/**
 * Stops the rounds of held sessions that are no longer active (maybe by a command handled elsewhere): an ended one is
 * let go (returned, for its lease to be released), a paused one kept for `!continue`, its rounds stopped once.
 */
export function stopInactive(owned: Map<string, Owned>, statuses: Map<string, string>, abort: (sessionId: string) => void): string[] {
  const ended: string[] = [];
  for (const [sessionId, session] of owned) {
    const status = statuses.get(sessionId);
    if (status === 'active') {
      session.paused = false;
      continue;
    }
    if (status === 'paused' && session.paused) continue;
    abort(sessionId);
    if (status === 'paused') session.paused = true;
    else ended.push(sessionId);
  }
  for (const sessionId of ended) owned.delete(sessionId);
  return ended;
}
