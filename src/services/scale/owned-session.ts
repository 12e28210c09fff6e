/** What this process keeps of a session whose lease it holds: which people's messages it handed to its rounds. */
import type { LocalRounds } from './session-ownership-options.ts';

/** A session this process holds. */
export interface Owned {
  /** Messages at or below this id were seen when the lease was taken (or long ago). */
  floor: number;
  /** Messages handed to the coordinator, by id, with when (clock ms). */
  handed: Map<number, number>;
  /** Paused: its rounds were told once; the lease is kept for `!continue`. */
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
 * Stops the rounds of held sessions that ended (maybe by a command handled elsewhere) and returns them, let go, for
 * their leases to be released. A paused one is kept for `!continue`, its rounds told once: as where the pause was
 * handled, the answers being written finish and no round starts after them. Cutting them here made `!pause` drop, a
 * second later, the answers it promises to let finish.
 */
export function stopInactive(owned: Map<string, Owned>, statuses: Map<string, string>, rounds: Pick<LocalRounds, 'abort' | 'pause'>): string[] {
  const ended: string[] = [];
  for (const [sessionId, session] of owned) {
    const status = statuses.get(sessionId);
    if (status === 'active') session.paused = false;
    else if (status === 'paused') {
      if (!session.paused) rounds.pause(sessionId);
      session.paused = true;
    } else {
      rounds.abort(sessionId);
      ended.push(sessionId);
    }
  }
  for (const sessionId of ended) owned.delete(sessionId);
  return ended;
}
