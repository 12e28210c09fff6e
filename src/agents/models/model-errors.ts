import { BrainstormError } from '../../core/errors.ts';

/** Why a model gave no usable answer. */
export type ModelFailureReason = 'failed' | 'breaker_open' | 'cut_off';

/** A model could not answer: retries ran out, the request was refused, its breaker is open, or its JSON was cut off. */
export class ModelUnavailableError extends BrainstormError {
  constructor(
    readonly modelId: string,
    readonly reason: ModelFailureReason,
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

/** What a person reads when a model's request failed with `status` (OpenRouter's meanings). */
export function failureMessage(modelId: string, status: number | undefined, detail: string | undefined): string {
  switch (status) {
    case 400:
      return /context|token|length/i.test(detail ?? '')
        ? `The conversation is longer than the context window of ${modelId} (HTTP 400).`
        : `${modelId} rejected the request (HTTP 400${detail ? `: ${detail}` : ''}).`;
    case 401:
    case 403:
      return `The API key was refused for ${modelId} (HTTP ${status}).`;
    case 402:
      return `The account has run out of credits for ${modelId} (HTTP 402).`;
    case 404:
      return `The model ${modelId} was not found at its endpoint (HTTP 404).`;
    case 429:
      return `${modelId} is rate limited and did not answer after retries (HTTP 429).`;
    case undefined:
      return `The model ${modelId} did not answer${detail ? ` (${detail})` : ''}.`;
    default:
      return `The model ${modelId} did not answer (HTTP ${status}).`;
  }
}
