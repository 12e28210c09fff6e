/** A small router for the fake's REST API: Discord paths, auth, rate limits, and Discord's error bodies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DiscordHttpError, notFound, unauthorized } from './discord-errors.ts';
import type { FakeRateLimits } from './rate-limits.ts';
import { multipartFiles, UPLOADS_KEY } from './uploads.ts';

/** What a route handler gets. */
export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  method: string;
}

/** What a route handler returns: a JSON body (status 200 unless told) or nothing (204). */
export type RouteResult = { status?: number; body?: unknown } | undefined;

/** One REST route. `auth: 'bot'` needs `Authorization: Bot <token>`; webhook/interaction token routes need none. */
export interface Route {
  method: string;
  pattern: string;
  name: string;
  auth: 'bot' | 'none';
  /** The parameter that splits buckets (Discord's "major parameter"). */
  major?: string;
  handler(context: RouteContext): RouteResult | Promise<RouteResult>;
}

/** One request as the fake saw it (tests use the log to check what the client really did). */
export interface RequestLogEntry {
  method: string;
  path: string;
  routeName: string;
  status: number;
  atMs: number;
  body: Record<string, unknown>;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  keys: string[];
}

/** Dispatches requests under `/api/v10` to routes. */
export class FakeRouter {
  readonly log: RequestLogEntry[] = [];
  /** Bugs in the fake itself (answered as 500), so a test can show them instead of a confusing timeout. */
  readonly internalErrors: unknown[] = [];
  /** Refuses a bot request before its route runs (throws a DiscordHttpError), e.g. in a server the bot left. */
  botGuard: (params: Record<string, string>) => void = () => undefined;
  private readonly routes: CompiledRoute[] = [];

  constructor(
    private readonly token: string,
    private readonly rateLimits: FakeRateLimits,
  ) {}

  /** Adds routes. */
  add(routes: Route[]): void {
    for (const route of routes) {
      const keys: string[] = [];
      const source = route.pattern.replace(/:([A-Za-z]+)/g, (_match, key: string) => {
        keys.push(key);
        return '([^/]+)';
      });
      this.routes.push({ ...route, regex: new RegExp(`^${source}$`), keys });
    }
  }

  /** Handles one HTTP request end to end. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    const method = request.method ?? 'GET';
    const path = url.pathname.replace(/^\/api(\/v\d+)?/, '');
    const found = this.match(method, path);
    let body: Record<string, unknown> = {};
    let status = 500;
    try {
      body = await readBody(request);
      if (!found) throw notFound();
      const { route, params } = found;
      if (route.auth === 'bot' && request.headers.authorization !== `Bot ${this.token}`) throw unauthorized();
      if (route.auth === 'bot') this.botGuard(params);
      const bucketKey = `${route.pattern}:${route.major ? (params[route.major] ?? '') : ''}`;
      const decision = this.rateLimits.check({ method, routeName: route.name, bucketKey });
      if (decision.limited) {
        status = 429;
        const { retryAfterSeconds, global } = decision.limited;
        return send(response, 429, { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global }, decision.headers);
      }
      const result = await route.handler({ params, query: url.searchParams, body, method });
      status = result?.body === undefined ? (result?.status ?? 204) : (result.status ?? 200);
      send(response, status, result?.body, decision.headers);
    } catch (error) {
      if (!(error instanceof DiscordHttpError)) this.internalErrors.push(error);
      const httpError = error instanceof DiscordHttpError ? error : new DiscordHttpError(500, 0, '500: Internal Server Error');
      status = httpError.status;
      if (!response.headersSent) send(response, httpError.status, httpError.body(), {});
    } finally {
      this.log.push({ method, path, routeName: found?.route.name ?? 'unknown', status, atMs: Date.now(), body });
    }
  }

  private match(method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const result = route.regex.exec(path);
      if (!result) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((key, index) => (params[key] = decodeURIComponent(result[index + 1] ?? '')));
      return { route, params };
    }
    return null;
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (body === undefined) {
    response.writeHead(status === 200 ? 204 : status, headers).end();
    return;
  }
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  const raw = Buffer.concat(chunks);
  const contentType = request.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    // discord.js sends multipart only with files; the message itself is in `payload_json`.
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const json = form.get('payload_json');
    const payload = typeof json === 'string' ? toObject(JSON.parse(json)) : {};
    return { ...payload, [UPLOADS_KEY]: await multipartFiles(form) };
  }
  return toObject(JSON.parse(raw.toString('utf8')));
}

function toObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}
