import { describe, expect, it } from 'vitest';
import { RequestDeadline } from '../../../../src/agents/models/request-deadline.ts';
import { ManualClock } from '../../../../src/core/clock.ts';

/** Counts the sleeps armed on it. */
class CountingClock extends ManualClock {
  sleeps = 0;
  override sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
    this.sleeps += 1;
    return super.sleep(milliseconds, signal);
  }
}

describe('RequestDeadline', () => {
  it('expires after the timeout without activity, counted from the latest chunk', async () => {
    const clock = new ManualClock();
    const deadline = new RequestDeadline(clock, 1000, undefined);
    await clock.advance(600);
    deadline.touch();
    await clock.advance(600);
    // 1200 ms since the start, but only 600 since the last chunk: still running.
    expect(deadline.signal.aborted).toBe(false);
    await clock.advance(300);
    deadline.touch();
    await clock.advance(999);
    expect(deadline.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(true);
  });

  it('a stream that keeps moving arms one sleep at a time, not one per chunk', async () => {
    const clock = new CountingClock();
    const deadline = new RequestDeadline(clock, 1000, undefined);
    for (let chunk = 0; chunk < 50; chunk += 1) deadline.touch();
    expect(clock.sleeps).toBe(1);
    deadline.clear();
    await clock.advance(5000);
    expect(deadline.signal.aborted).toBe(false);
  });

  it('follows the caller: its abort ends the attempt, and is not a time-out', async () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    const deadline = new RequestDeadline(clock, 1000, caller.signal);
    caller.abort(new Error('stop'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(false);
  });
});
