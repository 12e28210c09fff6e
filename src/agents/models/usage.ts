import type { ModelResponse } from '@openai/agents';
import { providerCost, weakerSource, type CostResolver, type CostSource } from '../../core/cost.ts';
import { recalledRawUsage } from './usage-ledger.ts';

/** Tokens and cost of a run (or one response), and where the cost came from. */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  costSource: CostSource;
}

/** How to price responses that carry no cost: the model that answered and the price table. */
export interface UsagePricing {
  modelId: string;
  prices: CostResolver;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The cost a provider reported in a raw usage, if it sent one (OpenRouter does; OpenAI, Anthropic, Ollama do not). */
export function providerCostOf(raw: Record<string, unknown> | undefined): number | undefined {
  const cost = raw?.cost;
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined;
}

/** Usage of one raw response: tokens from the SDK usage, cost from the provider's raw usage, else from `pricing`. */
export function responseUsage(response: ModelResponse, pricing?: UsagePricing): RunUsage {
  const raw: Record<string, unknown> = response.rawUsage ?? { ...recalledRawUsage(response.responseId) };
  const call = {
    inputTokens: numberOr(response.usage.inputTokens, numberOr(raw.prompt_tokens, 0)),
    outputTokens: numberOr(response.usage.outputTokens, numberOr(raw.completion_tokens, 0)),
    providerCostUsd: providerCostOf(raw),
  };
  const priced = pricing ? pricing.prices.costOf(pricing.modelId, call) : providerCost(call);
  return { inputTokens: call.inputTokens, outputTokens: call.outputTokens, ...priced };
}

/** Two usages added up; the sum's source is its less certain part's. */
export function sumUsage(first: RunUsage, second: RunUsage): RunUsage {
  return {
    inputTokens: first.inputTokens + second.inputTokens,
    outputTokens: first.outputTokens + second.outputTokens,
    costUsd: first.costUsd + second.costUsd,
    costSource: weakerSource(first.costSource, second.costSource),
  };
}

/** Sums the usage over a run's raw responses (`result.rawResponses`); the sum's source is its least certain part's. */
export function usageOf(result: { rawResponses: readonly ModelResponse[] }, pricing?: UsagePricing): RunUsage {
  let total: RunUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: 'provider' };
  let counted = 0;
  for (const response of result.rawResponses) {
    const usage = responseUsage(response, pricing);
    if (usage.inputTokens + usage.outputTokens + usage.costUsd === 0 && usage.costSource === 'unknown') continue;
    counted += 1;
    total = sumUsage(total, usage);
  }
  return counted === 0 ? { ...total, costSource: 'unknown' } : total;
}
