import type { Clock } from '../../../src/core/clock.ts';
import type { SimulatedReply } from '../../../src/simulator/index.ts';

/** A provider-side budget the fake enforces, like OpenAI's per-minute request limit. */
export interface FakeRateLimitOptions {
  requestsPerMinute: number;
}

/** The fake's limiter: answers every request with OpenAI-style `x-ratelimit-*` headers and refuses with 429 over budget. */
export interface FakeRateLimit {
  /** A 429 reply (with Retry-After) when the minute's budget is spent; else counts the request and returns undefined. */
  refuse(): SimulatedReply | undefined;
  /** The headers of an answered request: what is left of the budget and when it refills. */
  headers(): Record<string, string>;
  /** How many requests it refused. */
  readonly refused: number;
  reset(): void;
}

const WINDOW_MS = 60_000;

/** A sliding-minute request budget on the fake's clock. */
export function fakeRateLimit(options: FakeRateLimitOptions, clock: Clock): FakeRateLimit {
  let admitted: number[] = [];
  let refused = 0;
  const now = () => clock.now().getTime();
  const prune = () => (admitted = admitted.filter((at) => at + WINDOW_MS > now()));
  const resetMs = () => (admitted.length > 0 ? (admitted[0] ?? now()) + WINDOW_MS - now() : 0);
  const headers = (): Record<string, string> => ({
    'x-ratelimit-limit-requests': String(options.requestsPerMinute),
    'x-ratelimit-remaining-requests': String(Math.max(0, options.requestsPerMinute - admitted.length)),
    'x-ratelimit-reset-requests': `${resetMs() / 1000}s`,
  });
  return {
    refuse() {
      prune();
      if (admitted.length < options.requestsPerMinute) {
        admitted.push(now());
        return undefined;
      }
      refused += 1;
      return {
        kind: 'fault',
        fault: { type: 'http', status: 429, retryAfter: String(Math.ceil(resetMs() / 1000)) },
        headers: headers(),
      };
    },
    headers,
    get refused() {
      return refused;
    },
    reset() {
      admitted = [];
      refused = 0;
    },
  };
}
