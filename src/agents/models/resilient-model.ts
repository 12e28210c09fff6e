import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';
import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../../core/clock.ts';
import type { BreakerPermit, CircuitBreaker } from './circuit-breaker.ts';
import type { EndpointRateLimiter, RateLimitGrant } from './endpoint-rate-limiter.ts';
import { recordStreamUsage } from './generation-usage.ts';
import { failureMessage, ModelUnavailableError } from './model-errors.ts';
import { finishReasonOf, fixResponse, fixStreamEvent, markCutOff, unknownCalls, wantsJson } from './output-fixes.ts';
import { admitRequest } from './queued-admission.ts';
import { ModelTimeoutError, RequestDeadline } from './request-deadline.ts';
import { classifyFailure, retryDelayMs, type RetrySettings } from './retry-policy.ts';
import { clipText } from '../../core/text-clip.ts';

/** What a ResilientModel needs besides the model it wraps. */
export interface ResilientModelOptions {
  modelId: string;
  /** OpenRouter takes routing fields; a plain OpenAI-compatible endpoint answers 400 to unknown ones. Default openrouter. */
  dialect?: 'openrouter' | 'openai-compatible';
  clock: Clock;
  breaker: CircuitBreaker;
  /** Paces requests to the model's endpoint (shared by every model there); absent: no pacing. */
  limiter?: EndpointRateLimiter;
  retry: RetrySettings;
  /** An attempt that receives nothing for this long is aborted and retried (0: no deadline). */
  timeoutMs?: number;
  logger?: Logger;
}

/** Request errors that say nothing about the model's health (too long, malformed): they never bench it. */
const REQUEST_ERRORS = new Set([400, 413, 422]);

/** OpenRouter's 404 for a request showing images to a model that reads none: the request's fault, not the model's. */
const NO_IMAGE_INPUT = /support image input/i;

function isRequestError(status: number | undefined, error: unknown): boolean {
  if (status === undefined) return false;
  return REQUEST_ERRORS.has(status) || (status === 404 && error instanceof Error && NO_IMAGE_INPUT.test(error.message));
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
 * A Model that wraps OpenAIChatCompletionsModel with retries (backoff, Retry-After, clock-driven), a deadline on
 * the injected clock, a circuit breaker, pacing by its endpoint's rate limiter, and the OpenRouter repairs (empty
 * tool arguments, fenced JSON, calls to tools never offered, answers cut at the token limit, require_parameters,
 * raw usage).
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
    const permit = this.options.breaker.admit();
    try {
      for (let attempt = 1; ; attempt += 1) {
        const grant = await this.admit(prepared);
        const deadline = this.deadline(prepared);
        try {
          const response = await this.inner.getResponse({ ...prepared, signal: deadline.signal });
          grant?.settle(response.usage?.totalTokens);
          permit.succeed();
          this.noteUnknownCalls(response.output, prepared);
          return this.finish(fixResponse(response, prepared), finishReasonOf(response.providerData), prepared);
        } catch (error) {
          await this.options.clock.sleep(this.afterFailure(this.timeoutOr(error, deadline), prepared, permit, attempt, attempt), prepared.signal);
        } finally {
          deadline.clear();
        }
      }
    } finally {
      // Whatever ended the request without a verdict (an abort during a back-off) frees a half-open trial slot.
      permit.release();
    }
  }

  /** A streamed response; retried only while nothing has been streamed yet, repaired as items pass. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const prepared = prepareRequest(request, this.options.dialect);
    const permit = this.options.breaker.admit();
    try {
      for (let attempt = 1; ; attempt += 1) {
        let streamed = false;
        let finishReason: string | undefined;
        const grant = await this.admit(prepared);
        const deadline = this.deadline(prepared);
        try {
          for await (const event of this.inner.getStreamedResponse({ ...prepared, signal: deadline.signal })) {
            deadline.touch();
            if (event.type === 'model') finishReason = finishReasonOf(event.event) ?? finishReason;
            if (event.type === 'response_done') grant?.settle(event.response.usage?.totalTokens);
            streamed = true;
            const fixed = event.type === 'response_done' ? this.finishEvent(event, finishReason, prepared, permit) : event;
            recordStreamUsage(fixed);
            yield fixed;
          }
          permit.succeed();
          return;
        } catch (error) {
          // Once text reached the consumer the request cannot be replayed: this failure is the last.
          const delay = this.afterFailure(this.timeoutOr(error, deadline), prepared, permit, attempt, streamed ? Number.POSITIVE_INFINITY : attempt);
          await this.options.clock.sleep(delay, prepared.signal);
        } finally {
          deadline.clear();
        }
      }
    } finally {
      // A consumer that stops reading (a cancelled run) settles nothing; free a half-open trial slot.
      permit.release();
    }
  }

  /** Every attempt is a request the endpoint counts: each one waits for the endpoint's budget. */
  private admit(request: ModelRequest): Promise<RateLimitGrant | undefined> {
    const { limiter, modelId } = this.options;
    return limiter ? admitRequest(limiter, request, modelId) : Promise.resolve(undefined);
  }

  private deadline(request: ModelRequest): RequestDeadline {
    return new RequestDeadline(this.options.clock, this.options.timeoutMs ?? 0, request.signal);
  }

  private timeoutOr(error: unknown, deadline: RequestDeadline): unknown {
    return deadline.timedOut ? new ModelTimeoutError(this.options.modelId, this.options.timeoutMs ?? 0) : error;
  }

  /** Handles an answer cut at the token limit. */
  private finish(response: ModelResponse, finishReason: string | undefined, request: ModelRequest): ModelResponse {
    return { ...response, output: this.finishOutput(response.output, finishReason, request) };
  }

  private finishEvent(event: StreamEvent, finishReason: string | undefined, request: ModelRequest, permit: BreakerPermit): StreamEvent {
    if (event.type !== 'response_done') return event;
    permit.succeed();
    this.noteUnknownCalls(event.response.output, request);
    const fixed = fixStreamEvent(event, request);
    if (fixed.type !== 'response_done') return fixed;
    return { ...fixed, response: { ...fixed.response, output: this.finishOutput(fixed.response.output, finishReason, request) } };
  }

  /** Calls to tools the request never offered are dropped by the fixes; the log (and the generation span) keep them. */
  private noteUnknownCalls(output: readonly object[], request: ModelRequest): void {
    const names = unknownCalls(output, request);
    if (names.length > 0) this.options.logger?.warn({ model: this.options.modelId, tools: names }, 'model called tools it was not offered; dropped');
  }

  private finishOutput<Item extends object>(output: Item[], finishReason: string | undefined, request: ModelRequest): Item[] {
    const { modelId, logger } = this.options;
    if (finishReason !== 'length') return output;
    logger?.warn({ model: modelId, json: wantsJson(request) }, 'model answer cut off at the token limit');
    // Cut JSON cannot be parsed; cut text is still worth reading, marked so nobody takes it for the whole answer.
    if (wantsJson(request) && output.some((item) => (item as { type?: unknown }).type === 'message')) {
      throw new ModelUnavailableError(modelId, 'cut_off', undefined, `The answer of ${modelId} was cut off at its length limit before the JSON was complete.`);
    }
    return markCutOff(output);
  }

  /** Decides after a failed attempt: returns the delay before the next one, or settles the permit and throws. */
  private afterFailure(error: unknown, request: ModelRequest, permit: BreakerPermit, attempt: number, attemptsUsed: number): number {
    const { retry, clock, logger, modelId } = this.options;
    if (ModelUnavailableError.isModelUnavailable(error)) throw error;
    const verdict = classifyFailure(error, request.signal, clock.now());
    if (verdict.aborted) {
      permit.release();
      throw error;
    }
    // A half-open trial is one probe: retrying it would keep the slot (and the room) waiting on a model that is down.
    const lastAttempt = permit.trial || attemptsUsed >= retry.attempts || !verdict.retryable;
    logger?.warn({ model: modelId, attempt, status: verdict.status, retrying: !lastAttempt }, 'model request failed');
    if (!lastAttempt) return retryDelayMs(attempt - 1, verdict.retryAfterMs, retry);
    if (isRequestError(verdict.status, error)) permit.release();
    else permit.fail(`${modelId} failed ${attempt} time(s)${verdict.status ? ` (HTTP ${verdict.status})` : ''}`);
    throw wrapFailure(error, modelId, verdict.status);
  }
}

function wrapFailure(error: unknown, modelId: string, status: number | undefined): ModelUnavailableError {
  const detail = error instanceof ModelTimeoutError ? 'timed out' : error instanceof Error ? clipText(error.message, 200) : undefined;
  return new ModelUnavailableError(modelId, 'failed', status, failureMessage(modelId, status, detail), { cause: error });
}
