/**
 * OpenRouter's web search for a participant: the `openrouter:web_search` server tool goes into the request body
 * (the SDK spreads `modelSettings.providerData` over it; participants offer no function tools, so the `tools` key
 * is theirs alone), and the `url_citation` annotations come back on the output text's `providerData`, which the
 * Chat Completions model keeps both streamed and not.
 */
import type { ModelResponse, ModelSettings } from '@openai/agents';
import type { WebSearchSetting } from '../../config/roster.ts';
import type { Citation } from '../../core/domain.ts';
import { recalledRawUsage } from '../models/usage-ledger.ts';

/** The server tool's type name in OpenRouter's `tools` array. */
export const WEB_SEARCH_TOOL_TYPE = 'openrouter:web_search';

/** At most this many sources are kept per answer (a Discord message has little room). */
export const MAX_CITATIONS = 8;

/** The `tools` entry of a request for a participant whose web search is on. */
export function webSearchTool(setting: Extract<WebSearchSetting, { status: 'on' }>): Record<string, unknown> {
  return { type: WEB_SEARCH_TOOL_TYPE, ...(setting.maxResults !== undefined ? { parameters: { max_results: setting.maxResults } } : {}) };
}

/** Model settings that carry the server tool, when the participant's web search is on; else none. */
export function webSearchSettings(setting: WebSearchSetting | undefined): Pick<ModelSettings, 'providerData'> {
  return setting?.status === 'on' ? { providerData: { tools: [webSearchTool(setting)] } } : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only web pages become links: a `javascript:` or `data:` URL from a provider is dropped. */
function webUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function citationOf(annotation: unknown): Citation | null {
  if (!isRecord(annotation) || annotation.type !== 'url_citation' || !isRecord(annotation.url_citation)) return null;
  const url = webUrl(annotation.url_citation.url);
  if (!url) return null;
  const title = typeof annotation.url_citation.title === 'string' ? annotation.url_citation.title.replace(/\s+/g, ' ').trim() : '';
  return { url, title: title || new URL(url).hostname };
}

/** The annotations on the output text parts of one response's assistant messages. */
function annotationsOf(response: ModelResponse): unknown[] {
  return response.output.flatMap((item) => {
    if (item.type !== 'message' || item.role !== 'assistant') return [];
    return item.content.flatMap((part) => {
      const annotations: unknown = part.type === 'output_text' ? part.providerData?.annotations : undefined;
      return Array.isArray(annotations) ? annotations : [];
    });
  });
}

/** The web pages a run's answers cite, in order, each URL once. */
export function citationsOf(responses: readonly ModelResponse[]): Citation[] {
  const seen = new Map<string, Citation>();
  for (const annotation of responses.flatMap(annotationsOf)) {
    const citation = citationOf(annotation);
    if (citation && !seen.has(citation.url)) seen.set(citation.url, citation);
  }
  return [...seen.values()].slice(0, MAX_CITATIONS);
}

/** How many web searches OpenRouter reports for a run's responses (`usage.server_tool_use.web_search_requests`). */
export function webSearchesOf(responses: readonly ModelResponse[]): number {
  let total = 0;
  for (const response of responses) {
    const raw: unknown = response.rawUsage ?? recalledRawUsage(response.responseId);
    const serverToolUse = isRecord(raw) ? raw.server_tool_use : undefined;
    const count = isRecord(serverToolUse) ? serverToolUse.web_search_requests : undefined;
    if (typeof count === 'number' && Number.isFinite(count)) total += count;
  }
  return total;
}
