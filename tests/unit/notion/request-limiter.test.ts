/** The Notion limiter counts a request from its answer: Notion counts it on arrival, somewhere between the two. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { RequestLimiter } from '../../../src/notion/request-limiter.ts';

/** Lets pending promise continuations run. */
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('the Notion request limiter', () => {
  it('lets three go at once at 3 req/s; the fourth waits a window after the first answer, however late it came', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const limiter = new RequestLimiter(clock, 3);
    const answers = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()];
    let fourthSent = false;
    const fourth = limiter.acquire().then((answered) => ((fourthSent = true), answered));
    // A whole window passes with all three still on their way: counted from their sending, the fourth would go now.
    await clock.advance(1500);
    await flushed();
    expect(fourthSent).toBe(false);
    expect(limiter.waitMs()).toBe(1000);
    answers[0]!();
    await clock.advance(999);
    await flushed();
    expect(fourthSent).toBe(false);
    await clock.advance(1);
    await fourth;
    expect(fourthSent).toBe(true);
  });

  it('counts a place free a window after its answer', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const limiter = new RequestLimiter(clock, 0.5);
    const answered = await limiter.acquire();
    await clock.advance(300);
    answered();
    expect(limiter.waitMs()).toBe(2000);
    await clock.advance(1999);
    expect(limiter.waitMs()).toBe(1);
    await clock.advance(1);
    expect(limiter.waitMs()).toBe(0);
  });

  it('takes its part of the budget when other processes share the integration', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    let processes = 2;
    const limiter = new RequestLimiter(clock, 3, () => processes);
    // 1 request per 667 ms each: 3 req/s between the two.
    (await limiter.acquire())();
    expect(limiter.waitMs()).toBe(667);
    processes = 1;
    expect(limiter.waitMs()).toBe(0);
    (await limiter.acquire())();
    (await limiter.acquire())();
    expect(limiter.waitMs()).toBe(1000);
  });

  it('stops waiting for an answer when its caller gives up', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const limiter = new RequestLimiter(clock, 1);
    const answered = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('the job was stopped'));
    await expect(waiting).rejects.toThrow('the job was stopped');
    answered();
    await clock.advance(1000);
    expect(limiter.waitMs()).toBe(0);
  });
});
