/** Test helper: lets work that waits on a ManualClock finish, moving time only while something sleeps on it. */
import type { ManualClock } from '../../src/core/clock.ts';

/** Resolves with `promise`, advancing `clock` by `stepMs` whenever code is sleeping on it (no wall-clock sleeps). */
export async function settleWithClock<T>(promise: Promise<T>, clock: ManualClock, stepMs = 100): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => undefined);
  while (!done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (clock.pendingSleepers > 0) await clock.advance(stepMs);
  }
  return tracked;
}
