import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';

describe('ManualClock', () => {
  it('never moves backwards when two advances overlap (a test and a settle ticker)', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    void clock.sleep(500);
    const small = clock.advance(1000);
    // The small advance already woke the sleeper at 0.5 s; the big one moves 60 s from there.
    await clock.advance(60_000);
    await small;
    expect(clock.now().toISOString()).toBe('2026-01-01T00:01:00.500Z');
  });

  it('says how far off the next wake-up is and counts every use, so a ticker can tell busy code from quiet', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    expect(clock.untilNextWake).toBeUndefined();
    void clock.sleep(5000);
    void clock.sleep(1200);
    expect(clock.untilNextWake).toBe(1200);
    const before = clock.useCount;
    clock.now();
    expect(clock.useCount).toBe(before + 1);
    await clock.advance(1000);
    expect(clock.untilNextWake).toBe(200);
    await clock.advance(200);
    expect(clock.untilNextWake).toBe(3800);
  });
});
