import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { IdleSleep } from '../../../../src/services/jobs/idle-sleep.ts';

const at = (milliseconds: number) => new Date(Date.UTC(2026, 0, 1) + milliseconds);

describe("an idle job worker's sleep", () => {
  it('lasts the whole poll when the worker knows of nothing due', () => {
    expect(new IdleSleep(new ManualClock(at(0)), 1_000).waitMs(at(1_000))).toBe(1_000);
  });

  it('ends at the earliest known due time, whatever order they came in, and never lasts past the poll', () => {
    const sleep = new IdleSleep(new ManualClock(at(0)), 1_000);
    for (const time of [5_000, 1_300, 2_000]) sleep.expect(at(time));
    expect(sleep.waitMs(at(1_000))).toBe(300);
    expect(sleep.waitMs(at(1_000), 100)).toBe(100);
  });

  it('ends at once for a time already past, and forgets the times a claim covered', () => {
    const sleep = new IdleSleep(new ManualClock(at(0)), 1_000);
    sleep.expect(at(900));
    sleep.expect(at(1_500));
    expect(sleep.waitMs(at(1_000))).toBe(0);
    sleep.passed(at(1_000));
    expect(sleep.waitMs(at(1_000))).toBe(500);
    sleep.passed(at(1_500));
    expect(sleep.waitMs(at(1_500))).toBe(1_000);
  });

  it('ends early when a sooner due time is learnt while it sleeps, and at once when woken', async () => {
    const clock = new ManualClock(at(0));
    const sleep = new IdleSleep(clock, 600_000);
    let over = false;
    const sleeping = sleep.sleep().then(() => (over = true));
    sleep.expect(at(20));
    await sleeping;
    expect(over).toBe(true);
    const woken = sleep.sleep();
    sleep.wake();
    await woken;
  });
});
