import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';
import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../../services/clock.ts';
import type { CircuitBreaker } from './circuit-breaker.ts';
import { recordStreamUsage } from './generation-usage.ts';
import { ModelUnavailableError } from './model-errors.ts';
import { fixResponse, fixStreamEvent } from './output-fixes.ts';
import { classifyFailure, retryDelayMs, type RetrySettings } from './retry-policy.ts';

/** What a ResilientModel needs besides the model it wraps. */
export interface ResilientModelOptions {
  modelId: string;
  /** OpenRouter takes routing fields; a plain OpenAI-compatible endpoint answers 400 to unknown ones. Default openrouter. */
  dialect?: 'openrouter' | 'openai-compatible';
  clock: Clock;
  breaker: CircuitBreaker;
  retry: RetrySettings;
  logger?: Logger;
}

/** The OpenRouter request fields every request carries (structured output or tools need providers that honour them). */
function prepareRequest(request: ModelRequest, dialect: ResilientModelOptions['dialect']): ModelRequest {
  const strict = dialect !== 'openai-compatible' && (request.outputType !== 'text' || request.tools.length > 0 || request.handoffs.length > 0);
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
    const prepared = prepareRequest(request, this.options.dialect);
    return this.withRetries(prepared, async () => fixResponse(await this.inner.getResponse(prepared), prepared));
  }

  /** A streamed response; retried only while nothing has been streamed yet, repaired as items pass. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const prepared = prepareRequest(request, this.options.dialect);
    const { retry, breaker } = this.options;
    for (let attempt = 1; ; attempt += 1) {
      breaker.admit();
      let streamed = false;
      let settled = false;
      try {
        for await (const event of this.inner.getStreamedResponse(prepared)) {
          streamed = true;
          const fixed = fixStreamEvent(event, prepared);
          recordStreamUsage(fixed);
          yield fixed;
        }
        settled = true;
        breaker.succeed();
        return;
      } catch (error) {
        settled = true;
        // Once events reached the consumer the request cannot be replayed: this failure is the last.
        const delay = this.afterFailure(error, prepared, attempt, streamed ? retry.attempts : attempt);
        await this.options.clock.sleep(delay, prepared.signal);
      } finally {
        // A consumer that stops reading (a cancelled run) settles nothing; free a half-open trial slot.
        if (!settled) breaker.release();
      }
    }
  }

  private async withRetries<T>(request: ModelRequest, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      this.options.breaker.admit();
      try {
        const result = await call();
        this.options.breaker.succeed();
        return result;
      } catch (error) {
        const delay = this.afterFailure(error, request, attempt, attempt);
        await this.options.clock.sleep(delay, request.signal);
      }
    }
  }

  /** Decides after a failed attempt: returns the delay before the next one, or throws. */
  private afterFailure(error: unknown, request: ModelRequest, attempt: number, attemptsUsed: number): number {
    const { breaker, retry, clock, logger, modelId } = this.options;
    const verdict = classifyFailure(error, request.signal, clock.now());
    if (verdict.aborted) {
      breaker.release();
      throw error;
    }
    const lastAttempt = attemptsUsed >= retry.attempts || !verdict.retryable;
    logger?.warn({ model: modelId, attempt, status: verdict.status, retrying: !lastAttempt }, 'model request failed');
    if (lastAttempt) {
      breaker.fail(`${modelId} failed ${attempt} time(s)${verdict.status ? ` (HTTP ${verdict.status})` : ''}`);
      throw wrapFailure(error, modelId, verdict.status);
    }
    return retryDelayMs(attempt - 1, verdict.retryAfterMs, retry);
  }
}

function wrapFailure(error: unknown, modelId: string, status: number | undefined): ModelUnavailableError {
  const suffix = status ? ` (HTTP ${status})` : '';
  return new ModelUnavailableError(modelId, 'failed', status, `The model ${modelId} did not answer${suffix}.`, { cause: error });
}
