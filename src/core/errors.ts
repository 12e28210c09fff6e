/** Error codes a person may meet; each transport turns them into a clear reply. */
export type BrainstormErrorCode =
  | 'bad_input'
  | 'unknown_command'
  | 'wrong_state'
  | 'not_found'
  | 'forbidden'
  | 'rate_limited'
  | 'limit_reached'
  | 'model_unavailable'
  | 'guardrail_tripped'
  | 'service_unavailable'
  | 'internal';

/** An error with a code and a message written for the person who caused it. */
export class BrainstormError extends Error {
  constructor(
    readonly code: BrainstormErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BrainstormError';
  }

  /** True for a BrainstormError, also across module copies. */
  static isInstance(error: unknown): error is BrainstormError {
    return error instanceof Error && error.name === 'BrainstormError' && typeof (error as { code?: unknown }).code === 'string';
  }
}

/** The text a person sees for any error: the message of a BrainstormError, a neutral line otherwise. */
export function describeForPerson(error: unknown): string {
  if (BrainstormError.isInstance(error)) return error.message;
  return 'Something went wrong on our side. Nothing you said was lost; please try again in a moment.';
}
