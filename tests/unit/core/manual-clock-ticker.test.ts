import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { startQuietTicker } from '../../support/quiet-ticker.ts';

const START = Date.parse('2026-01-01T00:00:00Z');
const elapsed = (clock: ManualClock) => clock.now().getTime() - START;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const polls = (count: number, pollMs: number) => new Promise<void>((resolve) => setTimeout(resolve, count * pollMs));

describe('the settle ticker', () => {
  it('moves time only while nothing reads the clock, and only as far as the next sleeper', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const woken: number[] = [];
    const sleeper = clock.sleep(2500).then(() => woken.push(elapsed(clock)));
    const stop = startQuietTicker(clock, () => 0, { pollMs: 2 });
    try {
      // Busy code reads the clock at every turn of the event loop: time stands still meanwhile.
      for (let turn = 0; turn < 200; turn += 1) {
        clock.now();
        await nextTurn();
      }
      const whileBusy = elapsed(clock);
      await sleeper;
      // Quiet: a second at most at a time, and exactly to the sleeper's wake-up, not past it.
      expect(whileBusy).toBe(0);
      expect(woken).toEqual([2500]);
      await polls(10, 2);
      expect(elapsed(clock)).toBe(2500);

      await clock.sleep(300);
      expect(elapsed(clock)).toBe(2800);
    } finally {
      stop();
    }
  });

  it('leaves the sleepers it is told to ignore (participants’ deadlines) for the test to pass', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    void clock.sleep(90_000);
    const stop = startQuietTicker(clock, () => 1, { pollMs: 2 });
    try {
      await polls(20, 2);
      expect(elapsed(clock)).toBe(0);
    } finally {
      stop();
    }
  });
});
