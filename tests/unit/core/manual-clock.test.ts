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
});
