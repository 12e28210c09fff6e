import { describe, expect, it } from 'vitest';
import { delaySeconds, measureEventLoopDelay } from '../../../../src/services/scale/event-loop-delay.ts';

describe('event-loop delay', () => {
  it('counts only the time beyond the sampling period', () => {
    expect(delaySeconds(10_100_000, 10)).toBeCloseTo(0.0001, 9);
    expect(delaySeconds(31_000_000, 10)).toBeCloseTo(0.021, 9);
    expect(delaySeconds(45_000_000, 20)).toBeCloseTo(0.025, 9);
  });

  it('reads an interval shorter than the period, or none yet, as no delay', () => {
    expect(delaySeconds(9_400_000, 10)).toBe(0);
    expect(delaySeconds(Number.NaN, 20)).toBe(0);
    expect(delaySeconds(Number.POSITIVE_INFINITY, 20)).toBe(0);
  });

  it('reads a window with no sample yet as no delay, whatever the period', () => {
    const probe = measureEventLoopDelay({ resolutionMs: 10 });
    try {
      expect(probe.read()).toEqual({ p50: 0, p99: 0, max: 0 });
    } finally {
      probe.close();
    }
  });
});
