import { systemClock, type Clock } from '../../../src/core/clock.ts';
import {
  demoReply,
  startSimulator,
  type AgentIdentity,
  type ChatCompletionRequest,
  type ChatRequestContext,
  type ObservedRequest,
  type SimulatedReply,
  type SimulatedSearchResult,
  type SimulatorOptions,
} from '../../../src/simulator/index.ts';
import { fakeRateLimit, type FakeRateLimitOptions } from './fake-rate-limit.ts';
import { literalReply } from './literal-model.ts';

/** Whose requests a script answers: a participant by name, an agent role, a model id, or anyone. */
export type ScriptTarget = { participant: string } | { role: 'planner' | 'moderator' | 'scribe' | 'tldr' | 'ideas' } | { model: string } | 'any';

/** Options of the fake: the simulator's, minus the hooks the fake owns. */
export type FakeOpenRouterOptions = Omit<SimulatorOptions, 'responder' | 'onRequest'> & {
  clock?: Clock;
  /**
   * Who answers a request no script claims: `demo` (the demo brain, which follows our prompts) or `literal`
   * (a model that answers by the request's schema and never volunteers a tool call, as real models often do).
   */
  fallback?: 'demo' | 'literal';
  /**
   * When false, a scripted answer is given even to a request whose `tool_choice` forces a tool (a provider that
   * ignores forcing; the conformance suite). By default the fake behaves as OpenAI and most OpenRouter providers:
   * a forced request always gets a call of that tool, so a scripted prose answer waits for the next free request.
   */
  honourToolChoice?: boolean;
  /**
   * A provider budget like OpenAI's: every answer carries `x-ratelimit-*-requests` headers, and a request over
   * the minute's budget is refused with 429 and Retry-After (on the fake's clock). Unset: no limit, no headers.
   */
  rateLimit?: FakeRateLimitOptions;
};

/** A chat completion request the fake received, with who sent it. */
export interface ChatRequestRecord {
  body: ChatCompletionRequest;
  agent: AgentIdentity;
  headers: Record<string, string>;
  /** Whether a script answered it (false: the demo brain did). */
  scripted: boolean;
  /** True when the fake's `rateLimit` refused it with a 429. */
  rateLimited?: boolean;
}

/** A running fake OpenRouter. */
export interface FakeOpenRouter {
  /** Base URL ending in `/api/v1` (use as OPENROUTER_BASE_URL). */
  url: string;
  /** Every request (method, path, body, headers without Authorization). */
  requests: ObservedRequest[];
  /** Every chat completion request, in order. */
  chats: ChatRequestRecord[];
  /** Queues replies for a target; each request takes the next one, then the demo brain answers. */
  script(target: ScriptTarget, ...replies: SimulatedReply[]): void;
  /** Replies still queued for a target. */
  pending(target: ScriptTarget): number;
  /** Drops every queued reply and the logs. */
  reset(): void;
  close(): Promise<void>;
}

function keyOf(target: ScriptTarget): string {
  if (target === 'any') return '*';
  if ('participant' in target) return `participant:${target.participant}`;
  if ('role' in target) return `role:${target.role}`;
  return `model:${target.model}`;
}

function keysFor(context: ChatRequestContext): string[] {
  const keys: string[] = [];
  if (context.agent.role === 'participant') keys.push(`participant:${context.agent.name}`);
  else if (context.agent.role !== 'unknown') keys.push(`role:${context.agent.role}`);
  keys.push(`model:${context.body.model}`, '*');
  return keys;
}

/** Scripted replies of a provider that ignores `tool_choice` (see `replies.ignoringToolChoice`). */
const ignoringToolChoice = new WeakSet<SimulatedReply>();

/** The function a request's `tool_choice` forces by name, if any. */
function forcedFunction(body: ChatCompletionRequest): string | undefined {
  const choice = body.tool_choice;
  if (typeof choice !== 'object' || choice === null || !('function' in choice)) return undefined;
  const name = (choice as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? name : undefined;
}

/** Whether a scripted reply can answer a request forcing `forced`: a call of it, or a fault (which forcing cannot change). */
function fitsToolChoice(reply: SimulatedReply, forced: string | undefined): boolean {
  if (!forced || reply.kind === 'fault' || ignoringToolChoice.has(reply)) return true;
  return reply.kind === 'tool_calls' && reply.calls.some((call) => call.name === forced);
}

/** Starts the fake: the simulator plus scripted replies, faults, timings and a request log. */
export async function startFakeOpenRouter(options: FakeOpenRouterOptions = {}): Promise<FakeOpenRouter> {
  const queues = new Map<string, SimulatedReply[]>();
  const requests: ObservedRequest[] = [];
  const chats: ChatRequestRecord[] = [];
  const limit = options.rateLimit ? fakeRateLimit(options.rateLimit, options.clock ?? systemClock) : undefined;
  const responder = (context: ChatRequestContext): SimulatedReply | undefined => {
    const refusal = limit?.refuse();
    if (refusal) {
      chats.push({ body: context.body, agent: context.agent, headers: context.headers, scripted: false, rateLimited: true });
      return refusal;
    }
    const key = keysFor(context).find((candidate) => (queues.get(candidate)?.length ?? 0) > 0);
    const next = key ? queues.get(key)?.[0] : undefined;
    const answers = next !== undefined && (options.honourToolChoice === false || fitsToolChoice(next, forcedFunction(context.body)));
    const reply = answers && key ? queues.get(key)?.shift() : undefined;
    chats.push({ body: context.body, agent: context.agent, headers: context.headers, scripted: reply !== undefined });
    const answer = reply ?? (options.fallback === 'literal' ? literalReply(context.body) : undefined);
    if (!limit) return answer;
    const withBudget = answer ?? demoReply(context.body, options.participantPace);
    return { ...withBudget, headers: { ...limit.headers(), ...withBudget.headers } };
  };
  const simulator = await startSimulator({ ...options, responder, onRequest: (request) => requests.push(request) });
  return {
    url: simulator.url,
    requests,
    chats,
    script(target, ...replies) {
      const key = keyOf(target);
      queues.set(key, [...(queues.get(key) ?? []), ...replies]);
    },
    pending: (target) => queues.get(keyOf(target))?.length ?? 0,
    reset() {
      queues.clear();
      requests.length = 0;
      chats.length = 0;
      limit?.reset();
    },
    close: () => simulator.close(),
  };
}

/** Builders for scripted replies. */
export const replies = {
  /** The same reply, given even to a request that forces a tool (a provider that ignores `tool_choice`). */
  ignoringToolChoice: (reply: SimulatedReply): SimulatedReply => {
    ignoringToolChoice.add(reply);
    return reply;
  },
  /** A plain text answer. */
  text: (text: string, extra: Partial<Pick<SimulatedReply, 'timing' | 'usage'>> = {}): SimulatedReply => ({ kind: 'text', text, ...extra }),
  /** A text answer after a web search that found `results`: cited only when the request offers `openrouter:web_search`. */
  searched: (text: string, ...results: SimulatedSearchResult[]): SimulatedReply => ({ kind: 'text', text, searchResults: results }),
  /** A JSON answer; `fenced` wraps it in ```json fences like some models do. */
  json: (value: unknown, options: { fenced?: boolean } = {}): SimulatedReply => ({ kind: 'json', value, ...options }),
  /** One tool call; `args` is sent as given when a string (e.g. `""`), else JSON-encoded. */
  toolCall: (name: string, args: unknown = {}): SimulatedReply => ({
    kind: 'tool_calls',
    calls: [{ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
  }),
  /** Several tool calls in one response (parallel tool calls). */
  toolCalls: (...calls: Array<[name: string, args: unknown]>): SimulatedReply => ({
    kind: 'tool_calls',
    calls: calls.map(([name, args]) => ({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) })),
  }),
  /** A JSON answer followed by prose (`{...} Hope this helps!`). */
  jsonThenProse: (value: unknown, prose = '\n\nHope this helps! Let me know if you need anything else.'): SimulatedReply => ({
    kind: 'json',
    value,
    after: prose,
  }),
  /** An answer cut at the token limit: `finish_reason: "length"` after `text`. */
  truncated: (text: string): SimulatedReply => ({ kind: 'text', text, finishReason: 'length' }),
  /** `content: null` with only `reasoning`, as a reasoning model that spent its turn thinking. */
  reasoningOnly: (reasoning = 'Let me think about what the group needs here before I answer.'): SimulatedReply => ({ kind: 'no_content', reasoning }),
  /** `content: null` and `refusal` set (an OpenAI-style refusal). */
  refusal: (refusal = "I'm sorry, but I can't help with that."): SimulatedReply => ({ kind: 'refusal', refusal }),
  /** A text answer whose stream ends without the usage chunk (and a body without `usage`). */
  withoutUsage: (text: string): SimulatedReply => ({ kind: 'text', text, omitUsage: true }),
  /** Any reply with extra response headers (e.g. `x-ratelimit-remaining-requests: 0`). */
  withHeaders: (reply: SimulatedReply, headers: Record<string, string>): SimulatedReply => ({ ...reply, headers: { ...reply.headers, ...headers } }),
  /** 429 with a Retry-After header (seconds, or an HTTP date string). */
  rateLimited: (retryAfter: number | string = 1): SimulatedReply => ({ kind: 'fault', fault: { type: 'http', status: 429, retryAfter: String(retryAfter) } }),
  /** An HTTP error status (500, 502, 503, 400, 404 ...). */
  httpError: (status: number, message?: string): SimulatedReply => ({ kind: 'fault', fault: { type: 'http', status, ...(message ? { message } : {}) } }),
  /** A 200 stream that carries an error object (after `afterText`, if any). */
  streamError: (message = 'Provider returned error', code = 502, afterText?: string): SimulatedReply => ({
    kind: 'fault',
    fault: { type: 'stream_error', code, message, ...(afterText ? { afterText } : {}) },
  }),
  /** Never answers until the client aborts. */
  hang: (): SimulatedReply => ({ kind: 'fault', fault: { type: 'hang' } }),
  /** Streams `afterText`, then stalls with the stream open until the client aborts. */
  stall: (afterText: string): SimulatedReply => ({ kind: 'fault', fault: { type: 'stall', afterText } }),
  /** Drops the connection. */
  disconnect: (): SimulatedReply => ({ kind: 'fault', fault: { type: 'disconnect' } }),
};
