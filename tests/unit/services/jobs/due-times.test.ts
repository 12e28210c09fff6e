import { describe, expect, it } from 'vitest';
import { DueTimes } from '../../../../src/services/jobs/due-times.ts';

describe('the due times an idle job worker wakes for', () => {
  it('sleeps the whole poll when it knows of nothing due', () => {
    expect(new DueTimes().waitMs(1_000, 1_000)).toBe(1_000);
  });

  it('wakes for the earliest known due time, whatever order they came in, and never sleeps past the poll', () => {
    const due = new DueTimes();
    for (const time of [5_000, 1_300, 2_000]) due.add(time);
    expect(due.waitMs(1_000, 1_000)).toBe(300);
    expect(due.waitMs(1_000, 100)).toBe(100);
  });

  it('looks again at once for a time already past, and forgets the times a claim covered', () => {
    const due = new DueTimes();
    due.add(900);
    due.add(1_500);
    expect(due.waitMs(1_000, 1_000)).toBe(0);
    due.passed(1_000);
    expect(due.waitMs(1_000, 1_000)).toBe(500);
    due.passed(1_500);
    expect(due.waitMs(1_500, 1_000)).toBe(1_000);
  });
});
