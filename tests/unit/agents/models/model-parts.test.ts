import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import {
  CircuitBreaker,
  classifyFailure,
  retryAfterMsFrom,
  retryDelayMs,
  DEFAULT_RETRY,
  stripJsonFence,
  type BreakerChange,
} from '../../../../src/agents/models/index.ts';
import { extractJson, fixOutputItems } from '../../../../src/agents/models/output-fixes.ts';
import { ManualClock } from '../../../../src/core/clock.ts';

const now = new Date('2026-01-01T00:00:00Z');

describe('retry policy', () => {
  it('delays 1 s, 2 s, 4 s ... capped at 30 s; Retry-After wins (also capped)', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((index) => retryDelayMs(index, undefined, DEFAULT_RETRY))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(retryDelayMs(0, 5000, DEFAULT_RETRY)).toBe(5000);
    expect(retryDelayMs(0, 90_000, DEFAULT_RETRY)).toBe(30_000);
  });

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    expect(retryAfterMsFrom(new Headers({ 'retry-after': '4' }), now)).toBe(4000);
    expect(retryAfterMsFrom(new Headers({ 'retry-after': new Date(now.getTime() + 9000).toUTCString() }), now)).toBe(9000);
    expect(retryAfterMsFrom(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMsFrom(new Headers({}), now)).toBeUndefined();
  });

  it('retries 408/429/5xx/network and errors inside a stream; never other 4xx or aborts', () => {
    const status = (code: number) => APIError.generate(code, { message: 'x' }, undefined, new Headers());
    expect([408, 429, 500, 502, 503].map((code) => classifyFailure(status(code), undefined, now).retryable)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map((code) => classifyFailure(status(code), undefined, now).retryable)).toEqual([false, false, false, false, false]);
    expect(classifyFailure(new APIConnectionError({ message: 'reset' }), undefined, now).retryable).toBe(true);
    expect(classifyFailure(new APIError(undefined, { code: 502, message: 'in stream' }, undefined, undefined), undefined, now)).toMatchObject({
      retryable: true,
      status: 502,
    });
    expect(classifyFailure(new APIUserAbortError(), undefined, now)).toMatchObject({ retryable: false, aborted: true });
    const aborted = new AbortController();
    aborted.abort();
    expect(classifyFailure(status(503), aborted.signal, now)).toMatchObject({ retryable: false, aborted: true });
  });
});

describe('circuit breaker', () => {
  function breakerOn(clock: ManualClock, changes: BreakerChange[] = []) {
    return new CircuitBreaker('m', clock, { failureThreshold: 3, coolDownMs: 60_000 }, (change) => changes.push(change));
  }

  it('opens on the third failure, lets one trial through after the cool-down, reopens if it fails', async () => {
    const clock = new ManualClock();
    const changes: BreakerChange[] = [];
    const breaker = breakerOn(clock, changes);
    for (let index = 0; index < 2; index += 1) breaker.admit().fail('boom');
    expect(breaker.status().state).toBe('closed');
    breaker.admit().fail('boom');
    expect(breaker.status()).toMatchObject({ state: 'open', retryAt: new Date(clock.now().getTime() + 60_000) });
    expect(() => breaker.admit()).toThrow(expect.objectContaining({ code: 'model_unavailable', reason: 'breaker_open' }));
    await clock.advance(60_000);
    const trial = breaker.admit();
    expect(trial.trial).toBe(true);
    expect(() => breaker.admit()).toThrow(expect.objectContaining({ code: 'model_unavailable' }));
    trial.fail('still down');
    expect(breaker.status().state).toBe('open');
    expect(changes.map((change) => change.state)).toEqual(['open', 'half_open', 'open']);
  });

  it('open -> half-open -> closed', async () => {
    const clock = new ManualClock();
    const changes: BreakerChange[] = [];
    const breaker = breakerOn(clock, changes);
    for (let index = 0; index < 3; index += 1) breaker.admit().fail('boom');
    await clock.advance(59_999);
    expect(breaker.status().state).toBe('open');
    await clock.advance(1);
    expect(breaker.status().state).toBe('half_open');
    breaker.admit().succeed();
    expect(breaker.status()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(breaker.admit().trial).toBe(false);
    expect(changes.map((change) => change.state)).toEqual(['open', 'half_open', 'closed']);
  });

  it('open -> half-open -> open -> half-open -> closed: a failed trial frees its slot and restarts the cool-down', async () => {
    const clock = new ManualClock();
    const changes: BreakerChange[] = [];
    const breaker = breakerOn(clock, changes);
    for (let index = 0; index < 3; index += 1) breaker.admit().fail('boom');
    await clock.advance(60_000);
    const trial = breaker.admit();
    await clock.advance(30_000);
    trial.fail('trial failed');
    trial.fail('settled twice: ignored');
    expect(breaker.status()).toMatchObject({ state: 'open', retryAt: new Date(clock.now().getTime() + 60_000) });
    await clock.advance(60_000);
    breaker.admit().succeed();
    expect(breaker.status().state).toBe('closed');
    expect(changes.map((change) => change.state)).toEqual(['open', 'half_open', 'open', 'half_open', 'closed']);
  });

  it('a released trial (aborted) frees the slot without a verdict', async () => {
    const clock = new ManualClock();
    const breaker = breakerOn(clock);
    for (let index = 0; index < 3; index += 1) breaker.admit().fail('boom');
    await clock.advance(60_000);
    breaker.admit().release();
    expect(breaker.status().state).toBe('half_open');
    expect(breaker.admit().trial).toBe(true);
  });

  it('a success resets the count', () => {
    const breaker = breakerOn(new ManualClock());
    breaker.admit().fail('a');
    breaker.admit().fail('b');
    breaker.admit().succeed();
    breaker.admit().fail('c');
    expect(breaker.status()).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
  });
});

describe('output fixes', () => {
  it('strips a fence around the whole JSON, leaves other text alone', () => {
    expect(stripJsonFence('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(stripJsonFence('  ```\n[1,2]\n```  ')).toBe('[1,2]');
    expect(stripJsonFence('{"a":"```"}')).toBe('{"a":"```"}');
    expect(stripJsonFence('Look: ```x```')).toBe('Look: ```x```');
  });

  it('finds the JSON in prose around a fence or around a bare object', () => {
    expect(extractJson('{"a":1}')).toBe('{"a":1}');
    expect(extractJson('Here it is:\n```json\n{"a":2}\n```\nHope that helps')).toBe('{"a":2}');
    expect(extractJson('Sure! {"a":3} is my answer')).toBe('{"a":3}');
    expect(extractJson('no json here')).toBe('no json here');
    // A local reasoning model thinks first, braces and all.
    expect(extractJson('<think>\nThe schema wants {verdict, message}.\n</think>\n{"a":4}')).toBe('{"a":4}');
  });

  it('turns "" tool arguments into "{}" and strips fences only when JSON is wanted', () => {
    const items = [
      { type: 'function_call' as const, callId: 'c', name: 't', arguments: '' },
      {
        type: 'message' as const,
        role: 'assistant' as const,
        status: 'completed' as const,
        content: [{ type: 'output_text' as const, text: '```json\n{}\n```' }],
      },
    ];
    const fixed = fixOutputItems(items, true);
    expect(fixed[0]).toMatchObject({ arguments: '{}' });
    expect(fixed[1]).toMatchObject({ content: [{ text: '{}' }] });
    expect(fixOutputItems(items, false)[1]).toMatchObject({ content: [{ text: '```json\n{}\n```' }] });
  });
});
