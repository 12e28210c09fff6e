import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../core/clock.ts';
import type { ChatCompletionRequest, SimulatedFault, SimulatedReply } from './chat-types.ts';
import { completionBody, errorBody, piecesOf, renderAnswer, streamChunks } from './chat-response.ts';
import { estimateTokens } from './pricing.ts';
import { sendJson } from './http-replies.ts';
import type { SimulatorOptions } from './simulator-options.ts';

/** Everything needed to answer one chat completion request. */
export interface ChatExchange {
  request: IncomingMessage;
  response: ServerResponse;
  body: ChatCompletionRequest;
  reply: SimulatedReply;
  clock: Clock;
  ids: { next(prefix: string): string };
  options: SimulatorOptions;
}

const KEEP_ALIVE = ': OPENROUTER PROCESSING\n\n';

/** Sleeps on the simulator's clock; resolves false when the client went away meanwhile. */
async function pause(exchange: ChatExchange, milliseconds: number, signal: AbortSignal): Promise<boolean> {
  if (milliseconds > 0) await exchange.clock.sleep(milliseconds, signal).catch(() => undefined);
  return !signal.aborted;
}

function writeEvent(response: ServerResponse, data: unknown): void {
  response.write(`data: ${JSON.stringify(data)}\n\n`);
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.write(KEEP_ALIVE);
}

/** Held open until the client aborts or the server closes: the request's signal fires then. */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

/** Starts a stream and writes `text` as content chunks at once; returns the stream's completion id. */
function streamText(exchange: ChatExchange, text: string): string {
  const { response, body } = exchange;
  startStream(response);
  const id = exchange.ids.next('gen-sim');
  for (const piece of piecesOf(text)) {
    writeEvent(response, { id, object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  return id;
}

async function answerFault(exchange: ChatExchange, fault: SimulatedFault, signal: AbortSignal): Promise<void> {
  const { response, body } = exchange;
  switch (fault.type) {
    case 'http': {
      const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {};
      const message = fault.message ?? (fault.status === 429 ? 'Rate limit exceeded' : 'Provider returned error');
      return sendJson(response, fault.status, errorBody(fault.status, message, fault.metadata), headers);
    }
    case 'stream_error': {
      const code = fault.code ?? 502;
      const message = fault.message ?? 'Provider returned error';
      if (!body.stream) return sendJson(response, code, errorBody(code, message));
      const id = streamText(exchange, fault.afterText ?? '');
      writeEvent(response, {
        id,
        object: 'chat.completion.chunk',
        model: body.model,
        ...errorBody(code, message),
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      });
      response.end();
      return;
    }
    case 'stall':
      if (body.stream) streamText(exchange, fault.afterText);
      return untilAborted(signal);
    case 'hang':
      return untilAborted(signal);
    case 'disconnect':
      exchange.request.socket.destroy();
      return;
  }
}

async function answerStream(exchange: ChatExchange, reply: Exclude<SimulatedReply, { kind: 'fault' }>, signal: AbortSignal): Promise<void> {
  const { response, options } = exchange;
  const answer = renderAnswer(reply, exchange.body, exchange.ids, exchange.clock.now());
  startStream(response);
  if (!(await pause(exchange, reply.timing?.firstTokenMs ?? options.firstTokenMs ?? 0, signal))) return;
  const tokensPerSecond = reply.timing?.tokensPerSecond ?? options.tokensPerSecond;
  const perToken = tokensPerSecond ? 1000 / tokensPerSecond : 0;
  for (const chunk of streamChunks(answer)) {
    const delta = (chunk.choices as Array<{ delta?: { content?: string } }>)[0]?.delta?.content ?? '';
    if (perToken > 0 && delta && !(await pause(exchange, perToken * estimateTokens(delta), signal))) return;
    writeEvent(response, chunk);
  }
  response.end('data: [DONE]\n\n');
}

/** Answers one chat completion: latency, then a fault, a JSON body, or an SSE stream. */
export async function answerChat(exchange: ChatExchange): Promise<void> {
  const { response, options } = exchange;
  const reply = options.reportsCost === false && exchange.reply.kind !== 'fault' ? { ...exchange.reply, omitCost: true } : exchange.reply;
  const controller = new AbortController();
  response.on('close', () => controller.abort());
  for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value);
  if (!(await pause(exchange, reply.timing?.latencyMs ?? options.latencyMs ?? 0, controller.signal))) return;
  if (reply.kind === 'fault') return answerFault(exchange, reply.fault, controller.signal);
  if (exchange.body.stream) return answerStream(exchange, reply, controller.signal);
  sendJson(response, 200, completionBody(renderAnswer(reply, exchange.body, exchange.ids, exchange.clock.now())));
}
