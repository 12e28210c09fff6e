/** Deliveries for a room another process serves (its Discord shard holds the guild): when to offer them again. */

/** How soon a fresh delivery for a room another process serves is offered again (to whichever process claims it next). */
const ROOM_ELSEWHERE_RETRY_MS = 200;
/** How often, at most, a delivery that has waited long for the process serving its room is offered again. */
const ROOM_ELSEWHERE_MAX_RETRY_MS = 5_000;

/**
 * When a delivery for a room another process serves is offered again, after its message waited `waitedMs`: soon while
 * it is fresh (that process is up, and takes it at its next claim), less often as it waits (that process is down: a
 * Discord shard whose process is gone). Every live process re-offered such a delivery five times a second, each time
 * a claim, a postponement and a row of the jobs' run log, for as long as the shard stayed down.
 */
export function elsewhereRetryMs(waitedMs: number): number {
  return Math.min(ROOM_ELSEWHERE_MAX_RETRY_MS, Math.max(ROOM_ELSEWHERE_RETRY_MS, Math.round(waitedMs / 20)));
}
