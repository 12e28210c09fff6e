import type { CallTokens, CostResolver, CostSource, PricedCost, TokenPrice } from '../../core/cost.ts';
import type { ListedModel } from './model-listing.ts';

/** What the price table reads. */
export interface PriceTableOptions {
  /** OpenRouter's `/models` list as known now (never awaited: pricing must not hold up a turn). */
  listing: { current(): ReadonlyMap<string, ListedModel> | null } | null;
  /** The admin's prices (`MODEL_PRICES`), USD per token by model id. */
  configured: Readonly<Record<string, TokenPrice>>;
  /** Models reached only on keyless endpoints (Ollama, LM Studio): OpenRouter's prices say nothing about them. */
  localModels: ReadonlySet<string>;
}

/** A model's price and where it was found. */
export interface FoundPrice {
  price: TokenPrice;
  source: Extract<CostSource, 'config' | 'price_table'>;
}

/** OpenRouter figures carry 10 decimals; so do ours, so sums do not drift into float noise. */
function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

/**
 * A direct provider's id (`gpt-4o`) is OpenRouter's `vendor/id` (`openai/gpt-4o`): taken when exactly one listed
 * id ends with it, so an ambiguous name is never priced by a guess.
 */
function listedPrice(listing: ReadonlyMap<string, ListedModel>, modelId: string): TokenPrice | undefined {
  const exact = listing.get(modelId);
  if (exact) return exact.price;
  if (modelId.includes('/')) return undefined;
  const matches = [...listing].filter(([id]) => id.endsWith(`/${modelId}`));
  return matches.length === 1 ? matches[0]?.[1].price : undefined;
}

/**
 * Prices model calls: the provider's `usage.cost` when it sent one, else the admin's `MODEL_PRICES`, else
 * OpenRouter's per-token prices, else unknown (cost 0, said so). The admin's price wins over OpenRouter's list
 * because an admin who wrote one for a model means it (a discount, a different host of the same id).
 */
export class PriceTable implements CostResolver {
  constructor(private readonly options: PriceTableOptions) {}

  /** The cost of one call, with its source. */
  costOf(modelId: string | null | undefined, call: CallTokens): PricedCost {
    if (call.providerCostUsd !== undefined) return { costUsd: call.providerCostUsd, costSource: 'provider' };
    const found = modelId && call.inputTokens + call.outputTokens > 0 ? this.priceOf(modelId) : undefined;
    if (!found) return { costUsd: 0, costSource: 'unknown' };
    return { costUsd: roundUsd(call.inputTokens * found.price.prompt + call.outputTokens * found.price.completion), costSource: found.source };
  }

  /** The price of a model and where it comes from; undefined when nothing prices it. */
  priceOf(modelId: string): FoundPrice | undefined {
    const configured = Object.hasOwn(this.options.configured, modelId) ? this.options.configured[modelId] : undefined;
    if (configured) return { price: configured, source: 'config' };
    if (this.options.localModels.has(modelId)) return undefined;
    const listing = this.options.listing?.current();
    const listed = listing ? listedPrice(listing, modelId) : undefined;
    return listed ? { price: listed, source: 'price_table' } : undefined;
  }
}
