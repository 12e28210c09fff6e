import type { ModelResponse } from '@openai/agents';
import type { CostResolver } from '../../core/cost.ts';
import { sumUsage, usageOf, type RunUsage } from '../../agents/models/usage.ts';

/** What pricing a turn's model calls needs: the participant's model and, when configured, the price table. */
export interface SpendingPricing {
  modelId: string;
  prices?: CostResolver;
  /** Counts the tokens of a text for the model (an answer cut before its usage arrived). */
  countTokens: (text: string) => number;
}

const NOTHING: RunUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: 'unknown' };

/**
 * What one participant's turn paid its model, across its attempts. Every call counts toward the session once:
 * an attempt whose answer a guardrail refused was paid for though nobody sees it, and a cut answer was paid for
 * as far as its model wrote, shown or not.
 */
export class TurnSpending {
  private readonly discarded: ModelResponse[] = [];

  constructor(private readonly pricing: SpendingPricing) {}

  /** Keeps the responses of an attempt whose answer is not kept (a tripped guardrail's). */
  discard(responses: readonly ModelResponse[]): void {
    this.discarded.push(...responses);
  }

  /** The turn's usage when its answer arrived whole: the attempts before it, and this one's reported usage. */
  answered(responses: readonly ModelResponse[]): RunUsage {
    return usageOf({ rawResponses: [...this.discarded, ...responses] }, this.responsePricing());
  }

  /** The turn's usage without an answer: the attempts whose answers were not kept. */
  discardedOnly(): RunUsage {
    return this.discarded.length === 0 ? NOTHING : usageOf({ rawResponses: this.discarded }, this.responsePricing());
  }

  /**
   * The turn's usage when its run was cut before usage arrived: the prompt as estimated before sending it and the
   * words written so far, priced like any call that came without a cost, plus the attempts before it. A call cut
   * before its first word costs nothing here: it may never have left its endpoint's queue, and a provider bills no
   * stream cancelled before it began.
   */
  cut(estimatedInputTokens: number, writtenText: string): RunUsage {
    if (writtenText === '') return this.discardedOnly();
    const tokens = { inputTokens: estimatedInputTokens, outputTokens: this.pricing.countTokens(writtenText) };
    const priced = this.pricing.prices?.costOf(this.pricing.modelId, { ...tokens, providerCostUsd: undefined }) ?? { costUsd: 0, costSource: 'unknown' };
    return spentTogether(this.discardedOnly(), { ...tokens, ...priced });
  }

  private responsePricing() {
    return this.pricing.prices ? { modelId: this.pricing.modelId, prices: this.pricing.prices } : undefined;
  }
}

/** Whether a usage counts anything (tokens or cost). */
export function spentAnything(usage: RunUsage): boolean {
  return usage.inputTokens + usage.outputTokens + usage.costUsd > 0;
}

/** The sum of what was spent: a part that spent nothing lends the sum no source of its own. */
function spentTogether(first: RunUsage, second: RunUsage): RunUsage {
  if (!spentAnything(first)) return second;
  if (!spentAnything(second)) return first;
  return sumUsage(first, second);
}
