/** Errors of the web console's server. */
import { BrainstormError } from '../core/errors.ts';

/** Why the console server refused to start or to answer. */
export type WebServerErrorCode = 'web_token_required' | 'listen_failed' | 'not_started';

/** A console server error with a code a caller can branch on. */
export class WebServerError extends BrainstormError<WebServerErrorCode> {
  constructor(code: WebServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'WebServerError';
  }
}

/** An HTTP error a route throws; the server turns it into a JSON answer with this status. */
export class HttpError extends BrainstormError<'http_error'> {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super('http_error', message);
    this.name = 'HttpError';
  }
}
