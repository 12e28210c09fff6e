import type { ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';

const WHOLE_FENCE = /^\s*```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?\s*```\s*$/;
const INNER_FENCE = /```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n\s*```/;

/** Removes a Markdown code fence around a whole text (```json ... ```); other text is returned unchanged. */
export function stripJsonFence(text: string): string {
  const match = WHOLE_FENCE.exec(text);
  return match?.[1] !== undefined ? match[1].trim() : text;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON inside a model's final answer: the text itself when it parses, else a fenced block (whole or inside
 * prose), else the outermost `{...}`; unchanged when nothing parses (the SDK then reports the bad output).
 */
export function extractJson(text: string): string {
  if (parses(text)) return text;
  const candidates = [stripJsonFence(text), INNER_FENCE.exec(text)?.[1]?.trim(), text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)];
  return candidates.find((candidate): candidate is string => Boolean(candidate) && parses(candidate ?? '')) ?? text;
}

/** True when the request asks for a structured (JSON) final output. */
export function wantsJson(request: ModelRequest): boolean {
  return request.outputType !== 'text';
}

interface ItemView {
  type?: unknown;
  role?: unknown;
  arguments?: unknown;
  content?: unknown;
}

function isOutputText(part: unknown): part is { type: 'output_text'; text: string } {
  const view = part as { type?: unknown; text?: unknown } | null;
  return view?.type === 'output_text' && typeof view.text === 'string';
}

function fixItem<Item extends object>(item: Item, json: boolean): Item {
  const view = item as ItemView;
  // OpenRouter providers send `arguments: ""` for a call without parameters; the SDK would not run it.
  if (view.type === 'function_call' && typeof view.arguments === 'string' && view.arguments.trim() === '') return { ...item, arguments: '{}' };
  if (json && view.type === 'message' && view.role === 'assistant' && Array.isArray(view.content)) {
    const content: unknown[] = view.content.map((part: unknown) => (isOutputText(part) ? { ...part, text: extractJson(part.text) } : part));
    return { ...item, content };
  }
  return item;
}

/** Repairs the output items of one model response (empty tool arguments, fenced JSON). */
export function fixOutputItems<Item extends object>(items: Item[], json: boolean): Item[] {
  return items.map((item) => fixItem(item, json));
}

/** Repairs a non-streamed response. */
export function fixResponse(response: ModelResponse, request: ModelRequest): ModelResponse {
  return { ...response, output: fixOutputItems(response.output, wantsJson(request)) };
}

/** Repairs one stream event as it passes: only the final `response_done` carries items to fix. */
export function fixStreamEvent(event: StreamEvent, request: ModelRequest): StreamEvent {
  if (event.type !== 'response_done') return event;
  return { ...event, response: { ...event.response, output: fixOutputItems(event.response.output, wantsJson(request)) } };
}
