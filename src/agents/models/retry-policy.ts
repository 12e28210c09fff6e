import { APIConnectionError, APIError, APIUserAbortError } from 'openai';

/** How the model layer retries a failed request. */
export interface RetrySettings {
  /** Attempts in all, the first included. */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/** 3 attempts, 1 s then 2 s (then 4 s ...), never more than 30 s. */
export const DEFAULT_RETRY: RetrySettings = { attempts: 3, initialDelayMs: 1000, maxDelayMs: 30_000 };

/** What a failure means for the next attempt. */
export interface FailureVerdict {
  retryable: boolean;
  /** The delay the server asked for (Retry-After), if any. */
  retryAfterMs: number | undefined;
  /** HTTP status (or the numeric code of an error inside a 200 stream). */
  status: number | undefined;
  aborted: boolean;
}

const RETRYABLE_STATUSES = new Set([408, 429]);

function statusOf(error: APIError): number | undefined {
  if (typeof error.status === 'number') return error.status;
  // An error object inside a 200 stream carries its HTTP-like status in `code` (OpenRouter: `{ code: 502 }`).
  const body = error.error as { code?: unknown } | undefined;
  const code = Number(body?.code ?? error.code);
  return Number.isInteger(code) && code >= 100 && code < 600 ? code : undefined;
}

/** Reads `Retry-After` (seconds or HTTP date) or `retry-after-ms` from response headers. */
export function retryAfterMsFrom(headers: Headers | undefined, now: Date): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

function isAbortLike(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  if (error instanceof APIUserAbortError) return true;
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

/** Classifies a failed request: 429/408/5xx and network errors are retried, other 4xx and aborts never. */
export function classifyFailure(error: unknown, signal: AbortSignal | undefined, now: Date): FailureVerdict {
  if (isAbortLike(error, signal)) return { retryable: false, retryAfterMs: undefined, status: undefined, aborted: true };
  if (error instanceof APIConnectionError) return { retryable: true, retryAfterMs: undefined, status: undefined, aborted: false };
  if (error instanceof APIError) {
    const status = statusOf(error);
    const retryable = status === undefined || status >= 500 || RETRYABLE_STATUSES.has(status);
    return { retryable, retryAfterMs: retryAfterMsFrom(error.headers, now), status, aborted: false };
  }
  const networkCodes = ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET'];
  const code = (error as { code?: unknown } | null)?.code;
  const network = typeof code === 'string' && networkCodes.includes(code);
  return { retryable: network, retryAfterMs: undefined, status: undefined, aborted: false };
}

/** The delay before retry number `retryIndex` (0-based): doubling from the initial delay, capped; Retry-After wins. */
export function retryDelayMs(retryIndex: number, retryAfterMs: number | undefined, settings: RetrySettings): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, settings.maxDelayMs);
  return Math.min(settings.initialDelayMs * 2 ** retryIndex, settings.maxDelayMs);
}
