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

const PERSON_FACING_CODES: ReadonlySet<string> = new Set<BrainstormErrorCode>([
  'bad_input',
  'unknown_command',
  'wrong_state',
  'not_found',
  'forbidden',
  'rate_limited',
  'limit_reached',
  'model_unavailable',
  'guardrail_tripped',
  'service_unavailable',
  'internal',
]);

/** Marks every error of the family, also across module copies (a bundle and the sources, a test's import). */
const FAMILY = Symbol.for('brainstorm.error');

/**
 * The root of every error class of ours: a `code` and a message. Codes of `BrainstormErrorCode` are written for
 * the person who caused them; subclasses (config, prompts, Notion, the web server, model deadlines) carry
 * their own codes, which stay internal.
 */
export class BrainstormError<Code extends string = BrainstormErrorCode> extends Error {
  readonly [FAMILY] = true;

  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BrainstormError';
  }

  /** True for an error a person may read: one of ours with a person-facing code. */
  static isInstance(error: unknown): error is BrainstormError {
    return BrainstormError.isFamily(error) && PERSON_FACING_CODES.has(error.code);
  }

  /** True for any error of ours, whatever its code. */
  static isFamily(error: unknown): error is BrainstormError<string> {
    return error instanceof Error && (error as { [FAMILY]?: unknown })[FAMILY] === true && typeof (error as { code?: unknown }).code === 'string';
  }
}

/** The text a person sees for any error: the message of a person-facing BrainstormError, a neutral line otherwise. */
export function describeForPerson(error: unknown): string {
  if (BrainstormError.isInstance(error)) return error.message;
  return 'Something went wrong on our side. Nothing you said was lost; please try again in a moment.';
}

/** True for an error that says trying again cannot help (`retryable: false`: a transport's or a service's). */
export function isPermanentFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'retryable' in error && error.retryable === false;
}

/** True for a transport error saying the room itself is gone or closed to us (`roomGone: true`), not just this message. */
export function isRoomGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'roomGone' in error && error.roomGone === true;
}
