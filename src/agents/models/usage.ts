import type { ModelResponse } from '@openai/agents';
import { recalledRawUsage } from './usage-ledger.ts';

/** Tokens and cost of a run (or one response). */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Usage of one raw response: tokens from the SDK usage, cost from OpenRouter's preserved raw usage. */
export function responseUsage(response: ModelResponse): RunUsage {
  const raw: Record<string, unknown> = response.rawUsage ?? { ...recalledRawUsage(response.responseId) };
  return {
    inputTokens: numberOr(response.usage.inputTokens, numberOr(raw.prompt_tokens, 0)),
    outputTokens: numberOr(response.usage.outputTokens, numberOr(raw.completion_tokens, 0)),
    costUsd: numberOr(raw.cost, 0),
  };
}

/** Sums the usage over a run's raw responses (`result.rawResponses`). */
export function usageOf(result: { rawResponses: readonly ModelResponse[] }): RunUsage {
  const total: RunUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  for (const response of result.rawResponses) {
    const usage = responseUsage(response);
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.costUsd += usage.costUsd;
  }
  return total;
}
