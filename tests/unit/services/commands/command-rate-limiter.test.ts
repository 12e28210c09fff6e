import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { CommandRateLimiter } from '../../../../src/services/commands/command-rate-limiter.ts';
import { findRetainedKeys } from '../../../support/retained-keys.ts';

describe('CommandRateLimiter', () => {
  it('refuses commands beyond the limit within a minute, and says how long to wait', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const limiter = new CommandRateLimiter(clock, () => 2);
    expect([limiter.attempt('ann'), limiter.attempt('ann'), limiter.attempt('ann'), limiter.attempt('bo')]).toEqual([0, 0, 60, 0]);
    await clock.advance(45_000);
    expect(limiter.attempt('ann')).toBe(15);
    await clock.advance(15_001);
    expect(limiter.attempt('ann')).toBe(0);
  });

  it('forgets the people with no command in the last minute once another person runs one', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const limiter = new CommandRateLimiter(clock, () => 5);
    limiter.attempt('ann');
    await clock.advance(30_000);
    limiter.attempt('bo');
    await clock.advance(31_000);
    limiter.attempt('cy');
    expect(findRetainedKeys(limiter, new Set(['ann', 'bo', 'cy']))).toEqual(['root.recent (Map key bo)', 'root.recent (Map key cy)']);
  });
});
