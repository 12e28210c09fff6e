import { retryAfterMsFrom } from './retry-policy.ts';

/** What a provider's response says about its remaining budget; absent fields were not sent. */
export interface ProviderBudget {
  remainingRequests?: number;
  /** When the request budget refills, as a delay from now. */
  requestsResetMs?: number;
  remainingTokens?: number;
  tokensResetMs?: number;
  /** A 429's `Retry-After`: nothing should be sent to the endpoint before it. */
  retryAfterMs?: number;
}

/** Header names per budget, most specific first: OpenAI/Grok style, Anthropic's, then OpenRouter's generic ones. */
const NAMES = {
  remainingRequests: ['x-ratelimit-remaining-requests', 'anthropic-ratelimit-requests-remaining', 'x-ratelimit-remaining'],
  requestsReset: ['x-ratelimit-reset-requests', 'anthropic-ratelimit-requests-reset', 'x-ratelimit-reset'],
  remainingTokens: ['x-ratelimit-remaining-tokens', 'anthropic-ratelimit-tokens-remaining'],
  tokensReset: ['x-ratelimit-reset-tokens', 'anthropic-ratelimit-tokens-reset'],
} as const;

const UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** OpenAI's reset durations: `1s`, `6m0s`, `1h2m3.5s`, `20ms`. */
function goDurationMs(value: string): number | undefined {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== value) return undefined;
  return parts.reduce((total, part) => total + Number(part[1]) * (UNITS[part[2] ?? 's'] ?? 0), 0);
}

/**
 * A reset time as a delay from `now`: a duration (`1m30s`), plain seconds, an epoch in seconds or milliseconds
 * (OpenRouter sends epoch milliseconds), or a date (Anthropic sends RFC 3339).
 */
export function resetDelayMs(raw: string, now: Date): number | undefined {
  const value = raw.trim();
  if (/^\d+(\.\d+)?$/.test(value)) {
    const number = Number(value);
    if (number > 1e12) return Math.max(0, number - now.getTime());
    if (number > 1e9) return Math.max(0, number * 1000 - now.getTime());
    return number * 1000;
  }
  const duration = goDurationMs(value);
  if (duration !== undefined) return duration;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

function first(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null && value.trim() !== '') return value;
  }
  return undefined;
}

function count(headers: Headers, names: readonly string[]): number | undefined {
  const value = Number(first(headers, names));
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

function delay(headers: Headers, names: readonly string[], now: Date): number | undefined {
  const value = first(headers, names);
  return value === undefined ? undefined : resetDelayMs(value, now);
}

/** Reads the rate-limit headers of a response (and `Retry-After` on a 429). */
export function readProviderBudget(headers: Headers, status: number, now: Date): ProviderBudget {
  const budget: ProviderBudget = {};
  const entries: Array<[keyof ProviderBudget, number | undefined]> = [
    ['remainingRequests', count(headers, NAMES.remainingRequests)],
    ['requestsResetMs', delay(headers, NAMES.requestsReset, now)],
    ['remainingTokens', count(headers, NAMES.remainingTokens)],
    ['tokensResetMs', delay(headers, NAMES.tokensReset, now)],
    ['retryAfterMs', status === 429 ? retryAfterMsFrom(headers, now) : undefined],
  ];
  for (const [key, value] of entries) if (value !== undefined) budget[key] = value;
  return budget;
}
