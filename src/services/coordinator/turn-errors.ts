import { ModelUnavailableError } from '../../agents/models/model-errors.ts';

/** Statuses with which an endpoint refuses a request's content (an image it cannot read or fetch), not its key or pace. */
const CONTENT_REFUSALS = new Set([400, 404, 413, 415, 422]);

/** True when a model's endpoint refused what a request carried (never retried, never benching the model). */
export function refusedContent(error: unknown): boolean {
  return ModelUnavailableError.isModelUnavailable(error) && error.reason === 'failed' && error.status !== undefined && CONTENT_REFUSALS.has(error.status);
}

/** True for the errors an AbortSignal produces (ours, the SDK's or fetch's). */
export function isAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'APIUserAbortError' || error.name === 'TurnCut' || /aborted|abort/i.test(error.message);
}
