/** What a failed Notion call means for the caller, decided on `APIResponseError.code`, never on message text. */
import { BrainstormError } from '../core/errors.ts';
import { APIErrorCode, APIResponseError, ClientErrorCode, isNotionClientError } from '@notionhq/client';

/** How a caller should treat a failure. */
export type NotionFailureKind = 'rate_limited' | 'unavailable' | 'not_found' | 'unauthorized' | 'refused' | 'invalid';

/** A Notion call that failed, classified. `retryAfterMs` comes from Notion's Retry-After header. */
export class NotionRequestError extends BrainstormError<'notion_request_failed'> {
  constructor(
    readonly kind: NotionFailureKind,
    readonly notionCode: string,
    message: string,
    readonly retryAfterMs: number | null,
    options?: { cause?: unknown },
  ) {
    super('notion_request_failed', message, options);
    this.name = 'NotionRequestError';
  }

  /** True when trying again later can succeed. */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

/** The local limiter said wait longer than a request may block. */
export class NotionThrottledError extends BrainstormError<'notion_throttled'> {
  constructor(readonly waitMs: number) {
    super('notion_throttled', `Notion request limiter asks to wait ${waitMs} ms`);
    this.name = 'NotionThrottledError';
  }
}

const UNAVAILABLE = new Set<string>([
  APIErrorCode.InternalServerError,
  APIErrorCode.ServiceUnavailable,
  APIErrorCode.ServiceOverload,
  APIErrorCode.GatewayTimeout,
  APIErrorCode.ConflictError,
  ClientErrorCode.RequestTimeout,
  ClientErrorCode.ResponseError,
]);
const REFUSED = new Set<string>([APIErrorCode.InvalidRequestURL, APIErrorCode.InvalidRequest, APIErrorCode.ValidationError]);

function header(headers: unknown, name: string): string | undefined {
  if (headers && typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  if (headers && typeof headers === 'object') {
    const entry = Object.entries(headers as Record<string, unknown>).find(([key]) => key.toLowerCase() === name);
    return typeof entry?.[1] === 'string' ? entry[1] : undefined;
  }
  return undefined;
}

function retryAfterMs(error: APIResponseError): number | null {
  const value = header(error.headers, 'retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Classifies anything a Notion call threw (API errors, client timeouts, network failures). */
export function classifyNotionError(error: unknown): NotionRequestError {
  if (error instanceof NotionRequestError) return error;
  if (isNotionClientError(error)) {
    const code = String(error.code);
    const wait = error instanceof APIResponseError ? retryAfterMs(error) : null;
    if (code === APIErrorCode.RateLimited) return new NotionRequestError('rate_limited', code, error.message, wait, { cause: error });
    if (UNAVAILABLE.has(code)) return new NotionRequestError('unavailable', code, error.message, wait, { cause: error });
    if (code === APIErrorCode.ObjectNotFound) return new NotionRequestError('not_found', code, error.message, null, { cause: error });
    if (code === APIErrorCode.Unauthorized || code === APIErrorCode.RestrictedResource)
      return new NotionRequestError('unauthorized', code, error.message, null, { cause: error });
    if (REFUSED.has(code)) return new NotionRequestError('refused', code, error.message, null, { cause: error });
    return new NotionRequestError('invalid', code, error.message, null, { cause: error });
  }
  // A network failure (connection refused, reset) is an outage from our side of the wire.
  const message = error instanceof Error ? error.message : String(error);
  return new NotionRequestError('unavailable', 'network_error', message, null, { cause: error });
}
