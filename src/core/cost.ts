/**
 * Where a model call's cost came from: the provider's own `usage.cost`, OpenRouter's price list (`GET /models`),
 * the admin's `MODEL_PRICES`, or nowhere (the cost is then 0 and says so instead of pretending).
 */
export type CostSource = 'provider' | 'price_table' | 'config' | 'unknown';

/** Every cost source, from the most to the least certain. */
export const COST_SOURCES: readonly CostSource[] = ['provider', 'config', 'price_table', 'unknown'];

/** A model's price in US dollars per token (OpenRouter's unit). */
export interface TokenPrice {
  prompt: number;
  completion: number;
}

/** A cost in US dollars and where it came from. */
export interface PricedCost {
  costUsd: number;
  costSource: CostSource;
}

/** The tokens of one model call, and the cost its provider reported (undefined when it sent none). */
export interface CallTokens {
  inputTokens: number;
  outputTokens: number;
  providerCostUsd: number | undefined;
}

/** Prices model calls; the model layer implements it, tracing and services only call it. */
export interface CostResolver {
  /** The cost of one call of `modelId`: the provider's when sent, else estimated from a price, else unknown. */
  costOf(modelId: string | null | undefined, call: CallTokens): PricedCost;
}

/** Whether a value names a cost source (a stored column may hold anything). */
export function isCostSource(value: unknown): value is CostSource {
  return typeof value === 'string' && (COST_SOURCES as readonly string[]).includes(value);
}

/** The less certain of two sources: the source of a sum is as weak as its weakest part. */
export function weakerSource(first: CostSource, second: CostSource): CostSource {
  return COST_SOURCES.indexOf(first) >= COST_SOURCES.indexOf(second) ? first : second;
}

/** A call's cost when nothing prices it: the provider's if it sent one, else unknown. */
export function providerCost(call: CallTokens): PricedCost {
  return call.providerCostUsd === undefined ? { costUsd: 0, costSource: 'unknown' } : { costUsd: call.providerCostUsd, costSource: 'provider' };
}
