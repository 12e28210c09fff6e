/** The web console as a hono app: API, live events, the local channel, and its own static pages. */
import { isDatabaseUnreachable } from '../core/database-unreachable.ts';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { randomIds, type IdGenerator } from '../core/ids.ts';
import type { EventBus, SessionGateway } from '../core/ports.ts';
import { createAccessGuard } from './access-guard.ts';
import { registerConsoleRoutes } from './console-routes.ts';
import { eventStreamHandler } from './event-stream.ts';
import { errorResponse, jsonResponse, securityHeaders } from './http-kit.ts';
import { registerLocalChannelRoutes } from './local-channel-routes.ts';
import type { LocalTransport } from './local-transport.ts';
import { registerMetricsRoute } from './metrics-route.ts';
import { registerReadingRoutes } from './reading-routes.ts';
import { registerStaticFiles } from './static-files.ts';
import { HttpError } from './web-errors.ts';

/** The default port of the console (documented in the README and `.env.example`). */
export const DEFAULT_WEB_PORT = 7420;

/** What the console is built from; everything but the services has a default. */
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
  /**
   * Configuration notices the console shows under its header (a participant's web search is off, a brainstorm
   * channel the bot cannot use), read at each status request: some are known only once the bot has connected.
   */
  notices?: () => readonly string[];
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

/** The app's options, plus what only its server knows: the port it listens on (0 picks one) and when it stops. */
export interface ConsoleAppOptions extends WebServerOptions {
  /** The port the Host header must name on loopback; `port` (or the default) when not given. */
  boundPort?: () => number;
  /** Open event streams end when this aborts. */
  shutdown?: AbortSignal | undefined;
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

/** Builds the console's hono app; serve it with `createWebServer`, or call `app.request(...)` without a socket. */
export function createConsoleApp(options: ConsoleAppOptions): Hono {
  // Not strict: `/api/sessions/` is `/api/sessions`, as it always was.
  const app = new Hono({ strict: false });
  const host = options.host ?? '127.0.0.1';
  const guard = createAccessGuard({ host, port: options.boundPort ?? (() => options.port ?? DEFAULT_WEB_PORT), token: options.token || undefined });
  app.use(securityHeaders);
  // Health checks come from load balancers without the token; the answer holds nothing private.
  app.use((c, next) => (c.req.method === 'GET' && c.req.path === '/healthz' ? next() : guard(c, next)));
  registerApiRoutes(app, options);
  refuseOtherMethods(app);
  // After the 405 answers: the event stream and the pages were never part of them (another method is a 404).
  app.get(
    '/api/events',
    eventStreamHandler({
      events: options.events,
      localTransport: options.localTransport,
      heartbeatMs: options.heartbeatMs ?? 20_000,
      shutdown: options.shutdown,
    }),
  );
  registerStaticFiles(app);
  app.notFound(() => errorResponse(404, 'Not found.'));
  app.onError((error) => answerError(options.logger, error));
  return app;
}

function registerApiRoutes(app: Hono, options: ConsoleAppOptions): void {
  const readiness = options.readiness ?? (() => true);
  registerMetricsRoute(app, options.metrics);
  app.get('/healthz', () => (readiness() ? jsonResponse(200, { ok: true }) : jsonResponse(503, { ok: false, status: 'starting' })));
  app.get('/api/status', () =>
    jsonResponse(200, {
      ready: readiness(),
      demoMode: options.demoMode === true || (options.simulatedNames?.length ?? 0) > 0,
      demoNotice: demoNoticeOf(options),
      simulatedNames: options.demoMode ? null : (options.simulatedNames ?? []),
      notices: options.notices?.() ?? [],
      localChannel: options.localTransport !== undefined,
    }),
  );
  registerConsoleRoutes(app, options.queries, options.localTransport);
  registerReadingRoutes(app, options.queries, () => (options.clock ?? systemClock).now());
  if (options.localTransport) {
    registerLocalChannelRoutes(app, {
      gateway: options.gateway,
      transport: options.localTransport,
      queries: options.queries,
      ids: options.ids ?? randomIds,
      logger: options.logger,
    });
  }
}

/** A known API path asked with another method answers 405; registered after the routes, so they match first. */
function refuseOtherMethods(app: Hono): void {
  const paths = new Set(app.routes.filter((route) => route.method !== 'ALL').map((route) => route.path));
  for (const path of paths) app.all(path, () => errorResponse(405, 'Method not allowed.'));
}

function answerError(logger: Logger, error: Error): Response {
  if (error instanceof HTTPException) return error.getResponse();
  if (error instanceof HttpError) return errorResponse(error.status, error.message);
  // A 503 the page's outbox sends again once the server answers: nothing typed meanwhile is lost.
  if (isDatabaseUnreachable(error)) return errorResponse(503, 'The database is unreachable for a moment; trying again shortly.');
  logger.error({ err: error }, 'console request failed');
  return errorResponse(500, 'The console could not answer; the details are in the log.');
}
