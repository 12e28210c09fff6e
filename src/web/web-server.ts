/** The web console's HTTP server: API, live events, the local channel, and its own static pages. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { randomIds, type IdGenerator } from '../core/ids.ts';
import type { EventBus, SessionGateway } from '../core/ports.ts';
import { createAccessGuard, isLoopbackHost } from './access-guard.ts';
import { registerConsoleRoutes } from './console-routes.ts';
import { EventStreams } from './event-stream.ts';
import { sendError, sendJson } from './http-kit.ts';
import { registerMetricsRoute } from './metrics-route.ts';
import { registerLocalChannelRoutes } from './local-channel-routes.ts';
import { registerReadingRoutes } from './reading-routes.ts';
import type { LocalTransport } from './local-transport.ts';
import { Router } from './router.ts';
import { StaticFiles } from './static-files.ts';
import { HttpError, WebServerError } from './web-errors.ts';

/** The default port of the console (documented in the README and `.env.example`). */
export const DEFAULT_WEB_PORT = 7420;

/** What the console server is built from; everything but the services has a default. */
export interface WebServerOptions {
  host?: string;
  port?: number;
  /** Required when `host` is not a loopback address; when set, every request must carry it. */
  token?: string | undefined;
  gateway: SessionGateway;
  queries: ConsoleQueries;
  events: EventBus;
  localTransport?: LocalTransport | undefined;
  logger: Logger;
  /** True when the models are simulated: the console says so on every page. */
  demoMode?: boolean;
  /** Names of the participants a simulator answers for while the others are real (the console says which). */
  simulatedNames?: string[];
  /** Configuration notices the console shows under its header (a participant's web search is off, and why). */
  notices?: string[];
  /** True once the DB is migrated and the transports are up; `/healthz` answers 503 before. */
  readiness?: () => boolean;
  ids?: IdGenerator;
  /** The time exports are stamped with. */
  clock?: Clock;
  /** The Prometheus text exposition served at `/metrics` (behind the token like the API). */
  metrics?: () => Promise<string>;
  /** How often an idle event stream sends a keep-alive line. */
  heartbeatMs?: number;
}

/** A running (or startable) console server. */
export interface WebServer {
  /** The console's base URL, e.g. `http://127.0.0.1:7420` (known after `start()` when the port is 0). */
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The text the console shows in demo mode. */
export const DEMO_MODE_NOTICE =
  'Demo mode: the models are simulated on this machine, so every answer is canned text. To use real models, set OPENROUTER_API_KEY in .env (or OPENAI_/ANTHROPIC_/GROK_ keys for direct endpoints) and restart.';

/** The banner: whole demo mode, or which participants are simulated beside real ones, or none. */
function demoNoticeOf(options: WebServerOptions): string | null {
  if (options.demoMode) return DEMO_MODE_NOTICE;
  const names = options.simulatedNames ?? [];
  if (names.length === 0) return null;
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} simulated (no key for ${names.length === 1 ? 'its' : 'their'} endpoint): those answers are canned text, marked as such. Set their keys in .env and restart.`;
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Builds the console server; `start()` refuses a non-loopback host without a token (`web_token_required`). */
export function createWebServer(options: WebServerOptions): WebServer {
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? DEFAULT_WEB_PORT;
  const readiness = options.readiness ?? (() => true);
  const streams = new EventStreams(options.events, options.localTransport, options.heartbeatMs ?? 20_000);
  const router = buildRouter(options, readiness);
  const guard = createAccessGuard({ host, port: () => port, token: options.token || undefined });
  const files = new StaticFiles();
  let server: Server | null = null;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://console.invalid');
    const method = request.method ?? 'GET';
    // Health checks come from load balancers without the token; the answer holds nothing private.
    const healthCheck = method === 'GET' && url.pathname === '/healthz';
    if (!healthCheck && !guard(request, response, url)) return;
    if (method === 'GET' && url.pathname === '/api/events') {
      return streams.serve(request, response, { sessionId: url.searchParams.get('sessionId'), roomId: url.searchParams.get('roomId') });
    }
    const match = router.match(method, url.pathname);
    if (match.kind === 'found') return match.handler({ request, response, params: match.params, query: url.searchParams });
    if (match.kind === 'method_not_allowed') return sendError(response, 405, 'Method not allowed.');
    if ((method === 'GET' || method === 'HEAD') && serveStatic(files, response, url.pathname, method === 'HEAD')) return;
    sendError(response, 404, 'Not found.');
  };

  return {
    get url() {
      return formatUrl(host, port);
    },
    async start() {
      if (!isLoopbackHost(host) && !options.token) {
        throw new WebServerError(
          'web_token_required',
          `The console would listen on ${host}, which other machines can reach: set WEB_TOKEN, or WEB_HOST=127.0.0.1.`,
        );
      }
      server = createServer((request, response) => {
        handle(request, response).catch((error: unknown) => answerError(options.logger, response, error));
      });
      await listen(server, host, port);
      port = (server.address() as AddressInfo).port;
      options.localTransport?.setConsoleUrl(formatUrl(host, port));
    },
    async stop() {
      streams.closeAll();
      const current = server;
      server = null;
      if (!current) return;
      await new Promise<void>((resolve) => {
        current.close(() => resolve());
        current.closeAllConnections();
      });
    },
  };
}

function buildRouter(options: WebServerOptions, readiness: () => boolean): Router {
  const router = new Router();
  registerMetricsRoute(router, options.metrics);
  router.add('GET', '/healthz', ({ response }) =>
    readiness() ? sendJson(response, 200, { ok: true }) : sendJson(response, 503, { ok: false, status: 'starting' }),
  );
  router.add('GET', '/api/status', ({ response }) =>
    sendJson(response, 200, {
      ready: readiness(),
      demoMode: options.demoMode === true || (options.simulatedNames?.length ?? 0) > 0,
      demoNotice: demoNoticeOf(options),
      simulatedNames: options.demoMode ? null : (options.simulatedNames ?? []),
      notices: options.notices ?? [],
      localChannel: options.localTransport !== undefined,
    }),
  );
  registerConsoleRoutes(router, options.queries, options.localTransport);
  registerReadingRoutes(router, options.queries, () => (options.clock ?? systemClock).now());
  if (options.localTransport) {
    registerLocalChannelRoutes(router, {
      gateway: options.gateway,
      transport: options.localTransport,
      queries: options.queries,
      ids: options.ids ?? randomIds,
      logger: options.logger,
    });
  }
  return router;
}

function serveStatic(files: StaticFiles, response: ServerResponse, path: string, head: boolean): boolean {
  if (path === '/' || path === '/index.html') return files.send(response, 'index.html', head);
  if (path.startsWith('/assets/')) return files.send(response, path.slice('/assets/'.length), head);
  if (path === '/favicon.ico') return files.send(response, 'favicon.svg', head);
  return false;
}

function answerError(logger: Logger, response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  if (error instanceof HttpError) return sendError(response, error.status, error.message);
  logger.error({ err: error }, 'console request failed');
  sendError(response, 500, 'The console could not answer; the details are in the log.');
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) =>
      reject(new WebServerError('listen_failed', `The console could not listen on ${host}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
