import { withCustomSpan, type ModelRequest } from '@openai/agents';
import type { EndpointRateLimiter, RateLimitGrant } from './endpoint-rate-limiter.ts';

/** The custom span a request that had to wait for its endpoint's budget leaves in the trace. */
export const QUEUE_WAIT_SPAN = 'model_queue_wait';

/**
 * What a request will cost against a tokens-per-minute budget before it is sent: its prompt at about four
 * characters a token, plus the answer it may write (providers count `max_tokens` the same way).
 */
export function estimateRequestTokens(request: ModelRequest): number {
  const characters = (request.systemInstructions ?? '').length + JSON.stringify(request.input).length + JSON.stringify(request.tools).length;
  return Math.ceil(characters / 4) + (request.modelSettings.maxTokens ?? 0);
}

/**
 * Admits a request through its endpoint's limiter: at once when the budget allows, else after waiting in line
 * inside a `model_queue_wait` span whose data says how long (clock time), behind how many and for which budget.
 */
export async function admitRequest(limiter: EndpointRateLimiter, request: ModelRequest, modelId: string): Promise<RateLimitGrant> {
  // Serialising a long conversation on every call is wasted when no token budget is known.
  const tokens = limiter.countsTokens ? estimateRequestTokens(request) : 0;
  const immediate = limiter.tryAcquire(tokens);
  if (immediate) return immediate;
  const queuedBehind = limiter.depth;
  return withCustomSpan(
    async (span) => {
      const grant = await limiter.acquire(tokens, request.signal);
      span.spanData.data = { ...span.spanData.data, waitedMs: grant.waitedMs, reason: grant.reason ?? 'queue' };
      return grant;
    },
    { data: { name: QUEUE_WAIT_SPAN, data: { endpoint: limiter.endpoint, model: modelId, queuedBehind, estimatedTokens: tokens } } },
  );
}
