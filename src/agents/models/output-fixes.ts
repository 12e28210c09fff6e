import type { ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';
import { withoutThinking } from '../../core/answer-text.ts';

const FENCE = '```';
const FENCE_LANGUAGE = /^[a-zA-Z0-9_-]*/;
const INNER_OPENING = /```[a-zA-Z0-9_-]*\s*\n/;
const INNER_CLOSING = /\n[^\S\n]*```/;

/** Removes a Markdown code fence around a whole text (```json ... ```); other text is returned unchanged. */
export function stripJsonFence(text: string): string {
  // Read by its ends: one pattern with an optional language, body and spaces tried every split of a run of spaces (minutes for 20,000).
  const trimmed = text.trim();
  if (trimmed.length < 2 * FENCE.length || !trimmed.startsWith(FENCE) || !trimmed.endsWith(FENCE)) return text;
  const language = FENCE_LANGUAGE.exec(trimmed.slice(FENCE.length))?.[0].length ?? 0;
  return trimmed.slice(FENCE.length + language, -FENCE.length).trim();
}

/** The body of the first fenced block inside prose (```json\n...\n```), or undefined. */
function innerFence(text: string): string | undefined {
  const opening = INNER_OPENING.exec(text);
  if (!opening) return undefined;
  // The first opening only (a closing after a later one closes it too): trying each opening of an answer full of them was quadratic.
  const body = text.slice(opening.index + opening[0].length);
  const closing = INNER_CLOSING.exec(body);
  return closing ? body.slice(0, closing.index).trim() : undefined;
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
 * The JSON inside a model's final answer: the text itself when it parses, else (its thinking aside) a fenced block
 * (whole or inside prose), else the outermost `{...}`; unchanged when nothing parses (the SDK then reports the bad output).
 */
export function extractJson(text: string): string {
  if (parses(text)) return text;
  // A local reasoning model's `<think>` block comes first, and its braces are no JSON.
  const answer = withoutThinking(text);
  const candidates = [answer, stripJsonFence(answer), innerFence(answer), answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1)];
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

/** The tool and handoff names a request offers: a call to any other name cannot run. */
export function offeredNames(request: ModelRequest): Set<string> {
  return new Set([...request.tools.map((tool) => tool.name), ...request.handoffs.map((handoff) => handoff.toolName)]);
}

/** The names of function calls in `items` that the request did not offer. */
export function unknownCalls(items: readonly object[], request: ModelRequest): string[] {
  const offered = offeredNames(request);
  return items.flatMap((item) => {
    const view = item as { type?: unknown; name?: unknown };
    return view.type === 'function_call' && typeof view.name === 'string' && !offered.has(view.name) ? [view.name] : [];
  });
}

/**
 * Drops calls to tools the request never offered (a handoff the agent does not have, an invented tool): the SDK
 * would end the whole run with "Tool not found". Without them a response with nothing left is asked again.
 */
export function dropUnknownCalls<Item extends object>(items: Item[], request: ModelRequest): Item[] {
  const offered = offeredNames(request);
  return items.filter((item) => {
    const view = item as { type?: unknown; name?: unknown };
    return view.type !== 'function_call' || (typeof view.name === 'string' && offered.has(view.name));
  });
}

/** The note appended to a text answer that hit the token limit, so the room sees it was cut. */
export const CUT_OFF_NOTE = "\n\n*(cut off: the answer reached the model's length limit)*";

/** Appends the cut-off note to the last assistant text of a response. */
export function markCutOff<Item extends object>(items: Item[]): Item[] {
  const index = items.findLastIndex((item) => (item as ItemView).type === 'message' && Array.isArray((item as ItemView).content));
  if (index < 0) return items;
  return items.map((item, position) => {
    if (position !== index) return item;
    const content = ((item as ItemView).content as unknown[]).map((part) =>
      isOutputText(part) ? { ...part, text: `${part.text.trimEnd()}${CUT_OFF_NOTE}` } : part,
    );
    return { ...item, content };
  });
}

/** Repairs a non-streamed response: empty tool arguments, fenced JSON, calls to tools never offered. */
export function fixResponse(response: ModelResponse, request: ModelRequest): ModelResponse {
  return { ...response, output: dropUnknownCalls(fixOutputItems(response.output, wantsJson(request)), request) };
}

/** Repairs one stream event as it passes: only the final `response_done` carries items to fix. */
export function fixStreamEvent(event: StreamEvent, request: ModelRequest): StreamEvent {
  if (event.type !== 'response_done') return event;
  return { ...event, response: { ...event.response, output: dropUnknownCalls(fixOutputItems(event.response.output, wantsJson(request)), request) } };
}

/** The `finish_reason` of a raw chat completion (non-streamed `providerData`, or one raw stream chunk). */
export function finishReasonOf(raw: unknown): string | undefined {
  const choices = (raw as { choices?: Array<{ finish_reason?: unknown }> } | null)?.choices;
  const reason = Array.isArray(choices) ? choices[0]?.finish_reason : undefined;
  return typeof reason === 'string' ? reason : undefined;
}
