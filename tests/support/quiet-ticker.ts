import type { ManualClock } from '../../src/core/clock.ts';

/** How the ticker looks for quiet. */
export interface QuietTickerOptions {
  /** Real milliseconds between looks. */
  pollMs?: number;
  /** Looks in a row without a read of the clock before it moves. */
  quietLooks?: number;
  /** The most it moves at once. */
  maxStepMs?: number;
}

/**
 * Lets code that sleeps on a ManualClock (retry back-off, streaming throttle) through without wall-clock sleeps:
 * once nothing has read the clock for a few looks, time moves to the earliest sleeper's wake-up, a second at most.
 * Moving only when the app is quiet, and only as far as the next sleeper, makes stored times depend less on how
 * fast this machine is (a ticker that added a second every few milliseconds stamped two events one instant or a
 * second apart by luck). The cap matters: a request to a fake in flight reads no clock, and a jump straight to its
 * timeout would fail it. Sleepers counted by `ignoredSleepers` (participants' deadlines) pass only when a test
 * moves the clock. Returns a function that stops it.
 */
export function startQuietTicker(clock: ManualClock, ignoredSleepers: () => number, options: QuietTickerOptions = {}): () => void {
  const { pollMs = 5, quietLooks = 2, maxStepMs = 1000 } = options;
  let lastUses = clock.useCount;
  let quiet = 0;
  let advancing = false;
  const timer = setInterval(() => {
    const uses = clock.useCount;
    quiet = uses === lastUses ? quiet + 1 : 0;
    lastUses = uses;
    if (advancing || quiet < quietLooks || clock.pendingSleepers <= ignoredSleepers()) return;
    advancing = true;
    void clock.advance(Math.min(maxStepMs, Math.max(1, clock.untilNextWake ?? maxStepMs))).finally(() => {
      advancing = false;
    });
  }, pollMs);
  return () => clearInterval(timer);
}
