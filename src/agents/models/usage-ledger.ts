import { LRUCache } from 'lru-cache';

/** Usage of one model response as OpenRouter reports it. */
export interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cost?: number;
}

const CAPACITY = 5000;
const ledger = new LRUCache<string, RawUsage>({ max: CAPACITY });

/**
 * Remembers the raw usage (with OpenRouter's cost) of a streamed response by its response id. The streamed runner
 * keeps raw usage only when the agent itself sets `preserveRawUsage`; this lets `usageOf` find the cost anyway.
 * A bounded cache of facts about response ids, not application state. OpenRouter's ids are unique, but not every
 * OpenAI-compatible server's (Ollama numbers its `chatcmpl-` ids from 0 to 998), so a response that brought no usage
 * forgets what an earlier one with its id brought: its run must not be charged another's tokens and cost.
 */
export function rememberRawUsage(responseId: string | undefined, usage: RawUsage | undefined): void {
  if (!responseId) return;
  if (usage) ledger.set(responseId, usage);
  else ledger.delete(responseId);
}

/** The raw usage remembered for a response id. */
export function recalledRawUsage(responseId: string | undefined): RawUsage | undefined {
  // A lookup leaves the id's age alone: only remembering it again keeps it longer.
  return responseId ? ledger.peek(responseId) : undefined;
}
