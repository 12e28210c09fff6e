/** One message of a Chat Completions request, as the `openai` client sends it. */
export interface ChatMessageBody {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | Array<{ type: string; text?: string }> | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
}

/** A function tool offered in a request. */
export interface FunctionToolBody {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema };
}

/** An OpenRouter server tool (`openrouter:web_search`, ...): OpenRouter runs it, the client never sees a call. */
export interface ServerToolBody {
  type: `openrouter:${string}`;
  parameters?: Record<string, unknown>;
}

/** A tool offered in a request. */
export type ChatToolBody = FunctionToolBody | ServerToolBody;

/** The function tools of a request (server tools have no function to call). */
export function functionTools(body: { tools?: ChatToolBody[] }): FunctionToolBody[] {
  return (body.tools ?? []).filter((tool): tool is FunctionToolBody => tool.type === 'function');
}

/** A JSON schema, as loosely as requests carry it. */
export type JsonSchema = { [key: string]: unknown };

/** The request body of `POST /chat/completions`. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessageBody[];
  tools?: ChatToolBody[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: 'json_schema'; json_schema: { name: string; strict?: boolean; schema: JsonSchema } } | { type: 'json_object' | 'text' };
  temperature?: number;
  max_tokens?: number;
  provider?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A failure the simulator can answer with, shaped like OpenRouter's. */
export type SimulatedFault =
  /** An HTTP error (429 with Retry-After, 500/502/503, 400, 401, ...). */
  | { type: 'http'; status: number; message?: string; retryAfter?: string; metadata?: Record<string, unknown> }
  /** A 200 stream (or body) that carries an error object instead of, or after some of, the answer. */
  | { type: 'stream_error'; code?: number; message?: string; afterText?: string }
  /** Never answers; the request stays open until the client aborts or the server closes. */
  | { type: 'hang' }
  /** Streams `afterText`, then stalls with the stream open until the client aborts (a provider stuck mid-answer). */
  | { type: 'stall'; afterText: string }
  /** Drops the connection without an answer (a network error for the client). */
  | { type: 'disconnect' };

/** Delays for one reply, overriding the server's defaults. */
export interface ReplyTiming {
  /** Before the response starts (headers). */
  latencyMs?: number;
  /** After the headers, before the first token of a stream. */
  firstTokenMs?: number;
  /** Paces this reply's streamed tokens. */
  tokensPerSecond?: number;
}

/** One tool call in a reply; `arguments` is sent exactly as given (e.g. `""`). */
export interface SimulatedToolCall {
  name: string;
  arguments: string;
  id?: string;
}

/** How an answer ends and what else it carries, as OpenRouter sends it. */
export interface ReplyShape {
  /** `length` cuts the answer at the token limit (`native_finish_reason: "max_tokens"`); default stop/tool_calls. */
  finishReason?: 'stop' | 'length' | 'content_filter';
  /** `message.reasoning` (`delta.reasoning` when streamed), as reasoning models send it next to or instead of content. */
  reasoning?: string;
  /** Leaves out `usage` (the final usage chunk of a stream), as some providers do. */
  omitUsage?: boolean;
  /** Sends `usage` without `cost`, as every endpoint but OpenRouter does (OpenAI, Anthropic, xAI, Ollama). */
  omitCost?: boolean;
  /**
   * What a web search finds, used only when the request offers `openrouter:web_search` (else the model could not
   * search): the answer carries them as `url_citation` annotations (at most `max_results`) and the usage counts the search.
   */
  searchResults?: SimulatedSearchResult[];
  /** Extra response headers (e.g. `x-ratelimit-remaining-requests`), on an answer or a fault alike. */
  headers?: Record<string, string>;
}

/** One web page a simulated search finds. */
export interface SimulatedSearchResult {
  url: string;
  title: string;
  /** The excerpt OpenRouter adds to the citation. */
  content?: string;
}

/** What the simulator answers to one chat completion request. */
export type SimulatedReply = (
  | { kind: 'text'; text: string }
  | { kind: 'tool_calls'; calls: SimulatedToolCall[]; text?: string }
  | { kind: 'json'; value: unknown; fenced?: boolean; after?: string }
  /** `content: null` and `message.refusal` set (OpenAI-style refusal of structured output). */
  | { kind: 'refusal'; refusal: string }
  /** `content: null` with nothing else but what `ReplyShape` adds (e.g. only reasoning). */
  | { kind: 'no_content' }
  | { kind: 'fault'; fault: SimulatedFault }
) &
  ReplyShape & { timing?: ReplyTiming; usage?: { promptTokens?: number; completionTokens?: number; costUsd?: number } };

/** Who is asking, read from the first line of the system instructions (the agent protocol). */
export type AgentIdentity =
  { role: 'planner' | 'moderator' | 'scribe' | 'tldr' | 'ideas'; name: string } | { role: 'participant'; name: string } | { role: 'unknown'; name: string };

/** Everything a responder sees about a request. */
export interface ChatRequestContext {
  body: ChatCompletionRequest;
  agent: AgentIdentity;
  headers: Record<string, string>;
}

/** Chooses a reply; returning undefined falls through to the demo brain. */
export type ChatResponder = (context: ChatRequestContext) => SimulatedReply | undefined;

/** The text content of a message (string or text parts). */
export function messageText(message: ChatMessageBody): string {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) return message.content.map((part) => part.text ?? '').join('');
  return '';
}
