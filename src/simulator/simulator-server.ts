import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../core/clock.ts';
import type { SimulatorOptions } from './simulator-options.ts';
import type { ChatCompletionRequest, SimulatedReply } from './chat-types.ts';
import { identify } from './conversation-reading.ts';
import { demoReply } from './demo-brain.ts';
import { answerChat } from './chat-endpoint.ts';
import { embedText, toBase64Embedding } from './embeddings.ts';
import { SIMULATED_MODELS, estimateTokens } from './pricing.ts';
import { errorBody } from './chat-response.ts';
import { imageRefusal } from './image-input.ts';
import { sendJson } from './http-replies.ts';
import { toolsProblem } from './server-tools.ts';

export type { ObservedRequest, SimulatorOptions } from './simulator-options.ts';

/** A running simulator. */
export interface SimulatorHandle {
  /** Base URL for an `openai` client, ending in `/api/v1`. */
  url: string;
  port: number;
  /** How many chat completion requests were answered or are open. */
  readonly chatRequests: number;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function answerEmbeddings(response: ServerResponse, body: { model?: unknown; input?: unknown; encoding_format?: unknown }): void {
  const inputs = Array.isArray(body.input) ? body.input.map(String) : typeof body.input === 'string' ? [body.input] : undefined;
  if (!inputs || typeof body.model !== 'string') return sendJson(response, 400, errorBody(400, 'input and model are required'));
  const base64 = body.encoding_format === 'base64';
  const data = inputs.map((text, index) => {
    const vector = embedText(text);
    return { object: 'embedding', index, embedding: base64 ? toBase64Embedding(vector) : vector };
  });
  const tokens = inputs.reduce((sum, text) => sum + estimateTokens(text), 0);
  sendJson(response, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/** Starts an OpenAI-compatible server on loopback: chat completions (plain and SSE), embeddings, models. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const clock = options.clock ?? systemClock;
  let chatRequests = 0;
  let counter = 0;
  const instance = options.uniqueIds === false ? '' : `${randomUUID().slice(0, 8)}-`;
  const ids = { next: (prefix: string) => `${prefix}-${instance}${(counter += 1)}` };

  const chooseReply = (body: ChatCompletionRequest, headers: Record<string, string>): SimulatedReply =>
    options.responder?.({ body, agent: identify(body), headers }) ?? demoReply(body, options.participantPace);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const raw = request.method === 'POST' ? await readBody(request) : '';
    let body: unknown = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return sendJson(response, 400, errorBody(400, 'Request body is not valid JSON'));
    }
    const headers = headersOf(request);
    options.onRequest?.({ method: request.method ?? 'GET', path, headers, body });
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(response, 401, errorBody(401, 'No auth credentials found'));
    }
    if (request.method === 'GET' && path === '/api/v1/models') return sendJson(response, 200, { data: options.models ?? SIMULATED_MODELS });
    if (request.method === 'POST' && path === '/api/v1/embeddings') {
      if (options.embeddings === false) return sendJson(response, 404, errorBody(404, 'No endpoints found that support embeddings'));
      return answerEmbeddings(response, (body ?? {}) as Record<string, unknown>);
    }
    if (request.method === 'POST' && path === '/api/v1/chat/completions') {
      const chat = body as ChatCompletionRequest | undefined;
      if (!chat || typeof chat.model !== 'string' || !Array.isArray(chat.messages)) {
        return sendJson(response, 400, errorBody(400, 'model and messages are required'));
      }
      const problem = toolsProblem(chat);
      if (problem) return sendJson(response, 400, errorBody(400, `Invalid request: ${problem}`));
      const refusal = imageRefusal(chat, options.models ?? SIMULATED_MODELS, clock.now());
      if (refusal) return sendJson(response, refusal.status, errorBody(refusal.status, refusal.message, refusal.metadata));
      chatRequests += 1;
      return answerChat({ request, response, body: chat, reply: chooseReply(chat, headers), clock, ids, options });
    }
    sendJson(response, 404, errorBody(404, `No route for ${request.method} ${path}`));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, errorBody(500, (error as Error).message ?? 'Internal Server Error'));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/api/v1`,
    port: address.port,
    get chatRequests() {
      return chatRequests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
