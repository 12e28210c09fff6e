/**
 * OpenRouter's server tools as the simulator knows them: `openrouter:web_search` runs a (simulated) search whose
 * results come back as `url_citation` annotations, counted in `usage.server_tool_use` and priced into
 * `usage.cost`; a tool type OpenRouter does not know is refused with 400, as OpenRouter refuses it.
 */
import type { ChatCompletionRequest, ServerToolBody, SimulatedSearchResult } from './chat-types.ts';

/** The server tool types OpenRouter documents. */
const SERVER_TOOL_TYPES = new Set(['openrouter:web_search', 'openrouter:datetime']);

const SEARCH_ENGINES = new Set(['auto', 'native', 'exa', 'firecrawl', 'parallel']);

/** Results a search returns when the tool sets no `max_results`. */
export const DEFAULT_MAX_RESULTS = 5;

/** What a search result costs, in US dollars (Exa: $4 per 1000 results). */
export const SEARCH_RESULT_PRICE_USD = 0.004;

/** A `url_citation` annotation as OpenRouter puts it on the assistant message. */
export interface UrlCitation {
  type: 'url_citation';
  url_citation: { url: string; title: string; content?: string; start_index: number; end_index: number };
}

/** The web search a request asks for, or null when it offers no such tool. */
export interface WebSearchRequest {
  maxResults: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function webSearchProblem(parameters: unknown, index: number): string | null {
  if (parameters === undefined) return null;
  if (!isRecord(parameters)) return `tools[${index}].parameters must be an object`;
  const maxResults = parameters.max_results;
  if (maxResults !== undefined && (typeof maxResults !== 'number' || !Number.isInteger(maxResults) || maxResults < 1 || maxResults > 25)) {
    return `tools[${index}].parameters.max_results must be an integer from 1 to 25`;
  }
  if (parameters.engine !== undefined && !SEARCH_ENGINES.has(String(parameters.engine))) {
    return `tools[${index}].parameters.engine must be one of ${[...SEARCH_ENGINES].join(', ')}`;
  }
  return null;
}

/** Why OpenRouter would refuse the request's `tools` (an unknown type, bad parameters), or null when it accepts them. */
export function toolsProblem(body: ChatCompletionRequest): string | null {
  const tools: unknown = body.tools;
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'tools must be an array';
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool)) return `tools[${index}] must be an object`;
    if (tool.type === 'function') {
      if (!isRecord(tool.function) || typeof tool.function.name !== 'string') return `tools[${index}].function.name is required`;
      continue;
    }
    if (typeof tool.type !== 'string' || !SERVER_TOOL_TYPES.has(tool.type)) {
      return `tools[${index}].type: unknown tool type ${JSON.stringify(tool.type)}; expected "function" or a server tool (${[...SERVER_TOOL_TYPES].join(', ')})`;
    }
    if (tool.type === 'openrouter:web_search') {
      const problem = webSearchProblem(tool.parameters, index);
      if (problem) return problem;
    }
  }
  return null;
}

/** The web search the request offers the model, or null. */
export function webSearchOf(body: ChatCompletionRequest): WebSearchRequest | null {
  const tool = (body.tools ?? []).find((candidate): candidate is ServerToolBody => candidate.type === 'openrouter:web_search');
  if (!tool) return null;
  const maxResults = isRecord(tool.parameters) ? tool.parameters.max_results : undefined;
  return { maxResults: typeof maxResults === 'number' ? maxResults : DEFAULT_MAX_RESULTS };
}

/** Where the answer cites a result: the span of its URL or title in the text, else the whole text. */
function spanOf(content: string, result: SimulatedSearchResult): { start_index: number; end_index: number } {
  for (const needle of [result.url, result.title]) {
    const start = needle ? content.indexOf(needle) : -1;
    if (start >= 0) return { start_index: start, end_index: start + needle.length };
  }
  return { start_index: 0, end_index: content.length };
}

/** The annotations of an answer that searched: the first `max_results` results, each cited once. */
export function citationsFor(content: string, results: readonly SimulatedSearchResult[], search: WebSearchRequest): UrlCitation[] {
  return results.slice(0, search.maxResults).map((result) => ({
    type: 'url_citation',
    url_citation: { url: result.url, title: result.title, ...(result.content !== undefined ? { content: result.content } : {}), ...spanOf(content, result) },
  }));
}
