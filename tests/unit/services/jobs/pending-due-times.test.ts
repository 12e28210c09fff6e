import { describe, expect, it } from 'vitest';
import { PendingDueTimes } from '../../../../src/services/jobs/pending-due-times.ts';

const at = (minutes: number) => new Date(Date.UTC(2026, 4, 1, 9, 0) + minutes * 60_000);

describe('PendingDueTimes', () => {
  it('covers a wanted pass while the pending one is due ahead of it, and no longer once that pass started', () => {
    const due = new PendingDueTimes();
    due.learn('s1', due.current('s1'), at(0), at(1));
    expect(due.covers(due.current('s1'), at(0.5), at(1.5))).toBe(true);
    // Within the margin of its due time another process's clock may already have run it.
    expect(due.covers(due.current('s1'), at(0.99), at(2))).toBe(false);
    due.started('s1', at(1));
    expect(due.covers(due.current('s1'), at(1), at(2))).toBe(false);
  });

  it('drops an answer that raced a start: the job it names may be the one that started', () => {
    const due = new PendingDueTimes();
    const before = due.current('s1');
    due.started('s1', at(0));
    due.learn('s1', before, at(0), at(1));
    expect(due.covers(due.current('s1'), at(0.5), at(2))).toBe(false);
  });

  it('keeps the answer for a key last touched over an hour ago: the sweep comes after it', () => {
    const due = new PendingDueTimes();
    due.learn('s1', due.current('s1'), at(0), at(1));
    due.learn('s1', due.current('s1'), at(90), at(91));
    expect(due.covers(due.current('s1'), at(90.5), at(92))).toBe(true);
  });

  it('forgets the entries of keys nobody asked about for an hour, when another key is learnt or started', () => {
    const due = new PendingDueTimes();
    due.learn('ended', due.current('ended'), at(0), at(1));
    due.started('ran', at(2));
    due.learn('live', due.current('live'), at(59), at(60));
    expect(due.current('ended')).toBeDefined();
    due.started('live', at(63));
    expect(due.current('ended')).toBeUndefined();
    expect(due.current('ran')).toBeUndefined();
    expect(due.current('live')).toBeDefined();
  });
});
