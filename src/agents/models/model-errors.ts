import { BrainstormError } from '../../services/errors.ts';

/** A model could not answer: retries ran out, the request was refused, or its breaker is open. */
export class ModelUnavailableError extends BrainstormError {
  constructor(
    readonly modelId: string,
    readonly reason: 'failed' | 'breaker_open',
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('model_unavailable', message, options);
  }

  /** True for a ModelUnavailableError, also across module copies. */
  static isModelUnavailable(error: unknown): error is ModelUnavailableError {
    return BrainstormError.isInstance(error) && error.code === 'model_unavailable' && typeof (error as { modelId?: unknown }).modelId === 'string';
  }
}
