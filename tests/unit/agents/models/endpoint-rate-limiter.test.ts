import { describe, expect, it } from 'vitest';
import { EndpointRateLimiter, type RateLimitGrant, type RateLimits } from '../../../../src/agents/models/endpoint-rate-limiter.ts';
import { readProviderBudget, resetDelayMs } from '../../../../src/agents/models/rate-limit-headers.ts';
import { ManualClock } from '../../../../src/core/clock.ts';

function limiterWith(limits: Partial<RateLimits>, clock = new ManualClock()) {
  return { clock, limiter: new EndpointRateLimiter('https://api.example/v1', clock, { requestsPerMinute: 0, tokensPerMinute: 0, ...limits }) };
}

/** Lets queued waiters reach their next sleep (no wall-clock time passes on the ManualClock). */
async function settle(): Promise<void> {
  for (let index = 0; index < 5; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Tracks a pending acquire: `done` turns true when it resolves. */
function track(promise: Promise<RateLimitGrant>) {
  const state: { done: boolean; grant: RateLimitGrant | undefined; error: unknown } = { done: false, grant: undefined, error: undefined };
  promise.then(
    (grant) => Object.assign(state, { done: true, grant }),
    (error: unknown) => Object.assign(state, { done: true, error }),
  );
  return state;
}

describe('EndpointRateLimiter', () => {
  it('without limits or headers admits everything at once', () => {
    const { limiter } = limiterWith({});
    for (let index = 0; index < 100; index += 1) expect(limiter.tryAcquire(10_000)).toBeDefined();
    expect(limiter.depth).toBe(0);
    expect(limiter.countsTokens).toBe(false);
    limiter.observe({ remainingTokens: 5000, tokensResetMs: 1000 });
    expect(limiter.countsTokens).toBe(true);
  });

  it('paces a burst over the requests-per-minute budget instead of refusing it', async () => {
    const { clock, limiter } = limiterWith({ requestsPerMinute: 2 });
    expect(limiter.tryAcquire(1)).toBeDefined();
    await clock.advance(10_000);
    expect(limiter.tryAcquire(1)).toBeDefined();
    expect(limiter.tryAcquire(1)).toBeUndefined();
    const third = track(limiter.acquire(1));
    await settle();
    expect(limiter.depth).toBe(1);
    await clock.advance(49_999);
    expect(third.done).toBe(false);
    await clock.advance(1);
    expect(third.grant).toMatchObject({ waitedMs: 50_000, reason: 'requests_per_minute' });
    expect(limiter.depth).toBe(0);
  });

  it('serves waiters first in, first out', async () => {
    const { clock, limiter } = limiterWith({ requestsPerMinute: 1 });
    limiter.tryAcquire(1);
    const order: string[] = [];
    const names = ['a', 'b', 'c'];
    const pending = names.map((name) => limiter.acquire(1).then(() => order.push(name)));
    await settle();
    expect(limiter.depth).toBe(3);
    expect(limiter.tryAcquire(1)).toBeUndefined();
    for (let minute = 1; minute <= 3; minute += 1) {
      await clock.advance(60_000);
      expect(order).toEqual(names.slice(0, minute));
    }
    await Promise.all(pending);
  });

  it('an aborted waiter leaves the line and the one behind it moves up', async () => {
    const { clock, limiter } = limiterWith({ requestsPerMinute: 1 });
    limiter.tryAcquire(1);
    const controller = new AbortController();
    const first = track(limiter.acquire(1, controller.signal));
    const second = track(limiter.acquire(1));
    await settle();
    controller.abort(new Error('stopped'));
    await settle();
    expect(first.error).toMatchObject({ message: 'stopped' });
    expect(limiter.depth).toBe(1);
    await clock.advance(60_000);
    expect(second.grant?.waitedMs).toBe(60_000);
    const alreadyAborted = limiter.acquire(1, AbortSignal.abort(new Error('gone')));
    await expect(alreadyAborted).rejects.toThrow('gone');
    expect(limiter.depth).toBe(0);
  });

  it('counts tokens over a sliding minute, corrected by the usage a response reports', async () => {
    const { clock, limiter } = limiterWith({ tokensPerMinute: 1000 });
    const first = limiter.tryAcquire(600);
    expect(limiter.tryAcquire(600)).toBeUndefined();
    first?.settle(100);
    expect(limiter.tryAcquire(600)).toBeDefined();
    const waiting = track(limiter.acquire(600));
    await settle();
    await clock.advance(59_999);
    expect(waiting.done).toBe(false);
    await clock.advance(1);
    expect(waiting.grant).toMatchObject({ waitedMs: 60_000, reason: 'tokens_per_minute' });
  });

  it('lets a request larger than the whole token budget through once the window is empty', async () => {
    const { clock, limiter } = limiterWith({ tokensPerMinute: 1000 });
    limiter.tryAcquire(10);
    const big = track(limiter.acquire(5000));
    await settle();
    await clock.advance(60_000);
    expect(big.grant?.waitedMs).toBe(60_000);
  });

  it('waits for the reset when the provider says no requests are left', async () => {
    const { clock, limiter } = limiterWith({});
    limiter.observe({ remainingRequests: 0, requestsResetMs: 5000 });
    expect(limiter.tryAcquire(1)).toBeUndefined();
    const waiting = track(limiter.acquire(1));
    await settle();
    await clock.advance(5000);
    expect(waiting.grant).toMatchObject({ waitedMs: 5000, reason: 'provider_requests' });
    expect(limiter.tryAcquire(1)).toBeDefined();
  });

  it('spends the remaining provider budget locally until the next headers arrive', async () => {
    const { clock, limiter } = limiterWith({});
    limiter.observe({ remainingRequests: 2, requestsResetMs: 1000, remainingTokens: 300, tokensResetMs: 2000 });
    expect(limiter.tryAcquire(100)).toBeDefined();
    expect(limiter.tryAcquire(250)).toBeUndefined();
    expect(limiter.tryAcquire(100)).toBeDefined();
    expect(limiter.tryAcquire(1)).toBeUndefined();
    const waiting = track(limiter.acquire(250));
    await settle();
    await clock.advance(2000);
    expect(waiting.grant).toMatchObject({ waitedMs: 2000, reason: 'provider_tokens' });
  });

  it("pauses the whole endpoint for a 429's Retry-After", async () => {
    const { clock, limiter } = limiterWith({});
    limiter.observe({ retryAfterMs: 7000 });
    const waiting = track(limiter.acquire(1));
    await settle();
    await clock.advance(6999);
    expect(waiting.done).toBe(false);
    await clock.advance(1);
    expect(waiting.grant).toMatchObject({ waitedMs: 7000, reason: 'retry_after' });
  });
});

describe('provider rate-limit headers', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  it('reads OpenAI durations, seconds, epochs and dates as delays', () => {
    expect(['1s', '6m0s', '20ms', '1h2m3.5s', '0.5s'].map((value) => resetDelayMs(value, now))).toEqual([1000, 360_000, 20, 3_723_500, 500]);
    expect(resetDelayMs('12', now)).toBe(12_000);
    expect(resetDelayMs(String(now.getTime() + 4000), now)).toBe(4000);
    expect(resetDelayMs(String(now.getTime() / 1000 + 9), now)).toBe(9000);
    expect(resetDelayMs(new Date(now.getTime() + 3000).toISOString(), now)).toBe(3000);
    expect(resetDelayMs('soon', now)).toBeUndefined();
  });

  it('reads the budgets of OpenAI, Anthropic and OpenRouter, and Retry-After only on a 429', () => {
    const openai = new Headers({
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-remaining-tokens': '149000',
      'x-ratelimit-reset-tokens': '6m0s',
      'retry-after': '3',
    });
    expect(readProviderBudget(openai, 200, now)).toEqual({ remainingRequests: 59, requestsResetMs: 1000, remainingTokens: 149_000, tokensResetMs: 360_000 });
    expect(readProviderBudget(openai, 429, now).retryAfterMs).toBe(3000);
    const anthropic = new Headers({
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': new Date(now.getTime() + 2000).toISOString(),
    });
    expect(readProviderBudget(anthropic, 200, now)).toEqual({ remainingRequests: 0, requestsResetMs: 2000 });
    const openRouter = new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now.getTime() + 8000) });
    expect(readProviderBudget(openRouter, 429, now)).toEqual({ remainingRequests: 0, requestsResetMs: 8000 });
    expect(readProviderBudget(new Headers({ 'x-ratelimit-remaining-requests': 'lots' }), 200, now)).toEqual({});
  });
});
