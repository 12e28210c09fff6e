import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';
import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../../services/clock.ts';
import type { BreakerPermit, CircuitBreaker } from './circuit-breaker.ts';
import { recordStreamUsage } from './generation-usage.ts';
import { ModelUnavailableError } from './model-errors.ts';
import { fixResponse, fixStreamEvent } from './output-fixes.ts';
import { classifyFailure, retryDelayMs, type RetrySettings } from './retry-policy.ts';

/** What a ResilientModel needs besides the model it wraps. */
export interface ResilientModelOptions {
  modelId: string;
  clock: Clock;
  breaker: CircuitBreaker;
  retry: RetrySettings;
  logger?: Logger;
}

/** The OpenRouter request fields every request carries (structured output or tools need providers that honour them). */
function prepareRequest(request: ModelRequest): ModelRequest {
  const strict = request.outputType !== 'text' || request.tools.length > 0 || request.handoffs.length > 0;
  const existing = request.modelSettings.providerData ?? {};
  const providerData = strict
    ? { ...existing, provider: { ...(existing.provider as Record<string, unknown> | undefined), require_parameters: true } }
    : existing;
  return { ...request, modelSettings: { ...request.modelSettings, preserveRawUsage: true, providerData } };
}

/**
 * A Model that wraps OpenAIChatCompletionsModel with retries (backoff, Retry-After, clock-driven), a circuit
 * breaker, and the OpenRouter repairs (empty tool arguments, fenced JSON, require_parameters, raw usage).
 */
export class ResilientModel implements Model {
  constructor(
    private readonly inner: Model,
    private readonly options: ResilientModelOptions,
  ) {}

  /** The model id sent to the endpoint. */
  get modelId(): string {
    return this.options.modelId;
  }

  /** One response, retried on transient failures. */
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const prepared = prepareRequest(request);
    const permit = this.options.breaker.admit();
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const response = fixResponse(await this.inner.getResponse(prepared), prepared);
          permit.succeed();
          return response;
        } catch (error) {
          await this.options.clock.sleep(this.afterFailure(error, prepared, permit, attempt, attempt), prepared.signal);
        }
      }
    } finally {
      // Whatever ended the request without a verdict (an abort during a back-off) frees a half-open trial slot.
      permit.release();
    }
  }

  /** A streamed response; retried only while nothing has been streamed yet, repaired as items pass. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const prepared = prepareRequest(request);
    const permit = this.options.breaker.admit();
    try {
      for (let attempt = 1; ; attempt += 1) {
        let streamed = false;
        try {
          for await (const event of this.inner.getStreamedResponse(prepared)) {
            streamed = true;
            const fixed = fixStreamEvent(event, prepared);
            recordStreamUsage(fixed);
            yield fixed;
          }
          permit.succeed();
          return;
        } catch (error) {
          // Once events reached the consumer the request cannot be replayed: this failure is the last.
          const delay = this.afterFailure(error, prepared, permit, attempt, streamed ? Number.POSITIVE_INFINITY : attempt);
          await this.options.clock.sleep(delay, prepared.signal);
        }
      }
    } finally {
      // A consumer that stops reading (a cancelled run) settles nothing; free a half-open trial slot.
      permit.release();
    }
  }

  /** Decides after a failed attempt: returns the delay before the next one, or settles the permit and throws. */
  private afterFailure(error: unknown, request: ModelRequest, permit: BreakerPermit, attempt: number, attemptsUsed: number): number {
    const { retry, clock, logger, modelId } = this.options;
    const verdict = classifyFailure(error, request.signal, clock.now());
    if (verdict.aborted) {
      permit.release();
      throw error;
    }
    // A half-open trial is one probe: retrying it would keep the slot (and the room) waiting on a model that is down.
    const lastAttempt = permit.trial || attemptsUsed >= retry.attempts || !verdict.retryable;
    logger?.warn({ model: modelId, attempt, status: verdict.status, retrying: !lastAttempt }, 'model request failed');
    if (lastAttempt) {
      permit.fail(`${modelId} failed ${attempt} time(s)${verdict.status ? ` (HTTP ${verdict.status})` : ''}`);
      throw wrapFailure(error, modelId, verdict.status);
    }
    return retryDelayMs(attempt - 1, verdict.retryAfterMs, retry);
  }
}

function wrapFailure(error: unknown, modelId: string, status: number | undefined): ModelUnavailableError {
  const suffix = status ? ` (HTTP ${status})` : '';
  return new ModelUnavailableError(modelId, 'failed', status, `The model ${modelId} did not answer${suffix}.`, { cause: error });
}
