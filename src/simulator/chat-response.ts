import { messageText, type ChatCompletionRequest, type SimulatedReply } from './chat-types.ts';
import { costOf, estimateTokens } from './pricing.ts';
import { citationsFor, SEARCH_RESULT_PRICE_USD, webSearchOf, type UrlCitation } from './server-tools.ts';

type AnswerReply = Exclude<SimulatedReply, { kind: 'fault' }>;

/** The answer a reply renders to, before it is shaped as a body or a stream. */
export interface RenderedAnswer {
  id: string;
  created: number;
  model: string;
  content: string | null;
  refusal: string | null;
  reasoning: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: 'stop' | 'tool_calls' | 'length' | 'content_filter';
  /** `url_citation` annotations of a web search the model ran (empty without one). */
  annotations: UrlCitation[];
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    cost?: number;
    server_tool_use?: { web_search_requests: number; tool_calls_requested: number; tool_calls_executed: number };
  } | null;
}

/** OpenRouter's `native_finish_reason` next to the normalised one (the provider's own word). */
function nativeFinishReason(finishReason: RenderedAnswer['finishReason']): string {
  return finishReason === 'length' ? 'max_tokens' : finishReason;
}

function contentOf(reply: AnswerReply): string | null {
  switch (reply.kind) {
    case 'text':
      return reply.text;
    case 'json': {
      const json = JSON.stringify(reply.value);
      return (reply.fenced ? `\`\`\`json\n${json}\n\`\`\`` : json) + (reply.after ?? '');
    }
    case 'tool_calls':
      return reply.text ?? null;
    case 'refusal':
    case 'no_content':
      return null;
  }
}

function promptTokensOf(body: ChatCompletionRequest): number {
  const text = body.messages.map(messageText).join('\n') + JSON.stringify(body.tools ?? []) + JSON.stringify(body.response_format ?? '');
  return estimateTokens(text);
}

/** Renders a reply for a request: content, tool calls (with fresh ids), usage and cost. */
export function renderAnswer(reply: AnswerReply, body: ChatCompletionRequest, ids: { next(prefix: string): string }, now: Date): RenderedAnswer {
  const content = contentOf(reply);
  const toolCalls =
    reply.kind === 'tool_calls' ? reply.calls.map((call) => ({ id: call.id ?? ids.next('call'), name: call.name, arguments: call.arguments })) : [];
  const promptTokens = reply.usage?.promptTokens ?? promptTokensOf(body);
  const completionTokens =
    reply.usage?.completionTokens ?? estimateTokens((content ?? '') + (reply.reasoning ?? '') + toolCalls.map((call) => call.name + call.arguments).join(''));
  // A model can search only when the request offers the tool: scripted results are ignored otherwise.
  const search = reply.searchResults && reply.searchResults.length > 0 ? webSearchOf(body) : null;
  const annotations = search && reply.searchResults ? citationsFor(content ?? '', reply.searchResults, search) : [];
  const searchCost = annotations.length * SEARCH_RESULT_PRICE_USD;
  const tokenCost = reply.usage?.costUsd ?? costOf(body.model, promptTokens, completionTokens);
  return {
    id: ids.next('gen-sim'),
    created: Math.floor(now.getTime() / 1000),
    model: body.model,
    content,
    refusal: reply.kind === 'refusal' ? reply.refusal : null,
    reasoning: reply.reasoning ?? null,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    annotations,
    usage: reply.omitUsage
      ? null
      : {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          ...(reply.omitCost ? {} : { cost: Math.round((tokenCost + searchCost) * 1e10) / 1e10 }),
          ...(search ? { server_tool_use: { web_search_requests: 1, tool_calls_requested: 1, tool_calls_executed: 1 } } : {}),
        },
  };
}

/** The non-streamed `chat.completion` body. */
export function completionBody(answer: RenderedAnswer): Record<string, unknown> {
  const toolCalls = answer.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  return {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    provider: 'Simulated',
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: answer.finishReason,
        native_finish_reason: nativeFinishReason(answer.finishReason),
        message: {
          role: 'assistant',
          content: answer.content,
          refusal: answer.refusal,
          ...(answer.reasoning !== null ? { reasoning: answer.reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(answer.annotations.length > 0 ? { annotations: answer.annotations } : {}),
        },
      },
    ],
    ...(answer.usage ? { usage: answer.usage } : {}),
  };
}

/** Splits text into stream pieces of about a word each. */
export function piecesOf(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function chunk(answer: RenderedAnswer, delta: Record<string, unknown>, finishReason: string | null): Record<string, unknown> {
  return {
    id: answer.id,
    object: 'chat.completion.chunk',
    created: answer.created,
    model: answer.model,
    provider: 'Simulated',
    choices: [
      {
        index: 0,
        delta,
        finish_reason: finishReason,
        native_finish_reason: finishReason && nativeFinishReason(finishReason as RenderedAnswer['finishReason']),
        logprobs: null,
      },
    ],
  };
}

/** The stream chunks of an answer, in order: reasoning, text (or refusal) deltas, annotations, tool-call deltas (id and name first), finish, usage. */
export function streamChunks(answer: RenderedAnswer): Array<Record<string, unknown>> {
  const chunks: Array<Record<string, unknown>> = [];
  for (const piece of answer.reasoning ? piecesOf(answer.reasoning) : [])
    chunks.push(chunk(answer, { role: 'assistant', content: '', reasoning: piece }, null));
  if (answer.refusal) chunks.push(chunk(answer, { role: 'assistant', content: null, refusal: answer.refusal }, null));
  const pieces = answer.content ? piecesOf(answer.content) : [];
  pieces.forEach((piece, index) => chunks.push(chunk(answer, { ...(index === 0 ? { role: 'assistant' } : {}), content: piece }, null)));
  // OpenRouter sends a search's citations once the text is out, on a chunk of their own.
  if (answer.annotations.length > 0) chunks.push(chunk(answer, { role: 'assistant', content: '', annotations: answer.annotations }, null));
  answer.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk(
        answer,
        { role: 'assistant', content: null, tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
        null,
      ),
    );
    for (let start = 0; start < call.arguments.length; start += 12) {
      chunks.push(chunk(answer, { tool_calls: [{ index, function: { arguments: call.arguments.slice(start, start + 12) } }] }, null));
    }
  });
  chunks.push(chunk(answer, {}, answer.finishReason));
  if (answer.usage) chunks.push({ ...chunk(answer, {}, null), choices: [], usage: answer.usage });
  return chunks;
}

/** OpenRouter's error body: `{ error: { code, message, metadata } }`. */
export function errorBody(code: number, message: string, metadata?: Record<string, unknown>): Record<string, unknown> {
  return { error: { code, message, ...(metadata ? { metadata } : {}) } };
}
