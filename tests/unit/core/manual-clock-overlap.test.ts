import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';

describe('ManualClock', () => {
  it('never moves backwards when two advances overlap (a settle ticker and a test step)', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    void clock.sleep(500);
    const small = clock.advance(1000);
    await clock.advance(4 * 60_000);
    await small;
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(Date.parse('2026-05-01T09:04:00.000Z'));
  });
});
