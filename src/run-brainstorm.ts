import type { AppConfig } from './config/app-config.ts';
import { createApp } from './app.ts';
import { collectSecrets } from './config/load-config.ts';
import { createLogger } from './logging/logger.ts';
import { routeConsoleToLogger } from './logging/console-bridge.ts';
import { webSearchNotices } from './config/web-search.ts';
import { ConsoleQueries } from './services/console/console-queries.ts';
import { systemClock } from './core/clock.ts';
import { randomIds } from './core/ids.ts';
import type { DatabaseHandle } from './db/create-database.ts';
import type { StopReason } from './stop-signals.ts';
import { createWebServer, LocalTransport } from './web/index.ts';
import { LocalDeliveriesRepository } from './repositories/local-deliveries-repository.ts';

/** What `main` settled before the rest of the app loaded. */
export interface RunOptions {
  config: AppConfig;
  /** The database, already opening (see index.ts). */
  database: DatabaseHandle;
  /** When the process began to start, for the readyMs it logs. */
  startedAt: number;
  /** The first stop signal, heard since the process began to start (see stop-signals.ts). */
  stopSignal: Promise<StopReason>;
}

/** Runs Brainstorm: logging, transports, the app and the web console; stops cleanly on a signal. */
export async function runBrainstorm({ config, database, startedAt, stopSignal }: RunOptions): Promise<void> {
  const logger = createLogger({ level: config.runtime.logLevel, secrets: collectSecrets(config) });
  routeConsoleToLogger(logger);
  // A rejection nobody handled is a bug, logged with its stack; it must not take every room down with it (Node would
  // exit, and so would the Agents SDK's tracing, which listens for it unless someone else does).
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection (a bug): logged, the bot goes on'));
  // Set once the bot is connected, the last step of the start.
  let botStarted = false;
  void stopSignal.then((signal) => {
    if (!botStarted) logger.info({ signal }, 'stop asked while starting: stopping as soon as the start is done (a second signal stops at once)');
  });
  for (const line of config.defaultsChosen) logger.info(`default chosen — ${line}`);
  const notices = webSearchNotices(config.models.roster);
  for (const line of notices) logger.warn(line);

  // The console's rooms are kept in the database, as Discord keeps a thread: a restart shows them as they were.
  const localTransport = new LocalTransport({ clock: systemClock, ids: randomIds, store: new LocalDeliveriesRepository(database.db) });
  // discord.js is loaded only when a bot token is set: it is most of the start-up time otherwise. Its connection is
  // built before the app (which needs its transport) and its event handlers after (they call the app's gateway).
  const discord = config.discord.token ? await import('./bot/discord-bot.ts') : null;
  const connection = discord?.createDiscordConnection({ config, logger, clock: systemClock }) ?? null;
  const app = await createApp({ config, logger, database, transports: connection ? [localTransport, connection.transport] : [localTransport] });
  const processes = { ids: () => app.liveProcesses.ids(), selfId: app.worker.id };
  const bot = discord && connection ? discord.createDiscordBot({ config, gateway: app.gateway, connection, logger, clock: systemClock, processes }) : null;
  // A process that died or stopped may have taken a message and never handled it: read its rooms back, and take it
  // over. Only those rooms: every process hears every message of its guilds, so the rest was heard here.
  app.whenProcessesGone(() => {
    if (!botStarted) return;
    void bot?.catchUp({ unfinishedOnly: true }).catch((error: unknown) => logger.warn({ err: error }, 'taking over what a process that is gone left failed'));
  });
  const web = createWebServer({
    host: config.web.host,
    port: config.web.port,
    token: config.web.token,
    gateway: app.gateway,
    queries: new ConsoleQueries(app.repositories, app.clock),
    events: app.events,
    localTransport,
    logger,
    demoMode: config.models.demoMode,
    simulatedNames: config.models.roster.filter((entry) => entry.simulated).map((entry) => entry.name),
    notices: () => [...notices, ...(bot?.setupProblems().map((problem) => problem.text) ?? [])],
    // Ready once the bot is connected too: a rolling restart stops the old process only when the new one hears Discord.
    readiness: () => app.ready() && (bot === null || botStarted),
    metrics: () => app.services.metrics.render(),
  });
  await web.start();
  localTransport.setConsoleUrl(web.url);
  // Discord replays nothing said while no process ran: the bot reads it back before the sessions resume, so a `!stop`
  // said meanwhile stops its session before any round goes on, and a question said meanwhile is in the first one.
  await app.start({ resume: false });
  await bot?.start();
  await app.resume();
  botStarted = true;
  logger.info({ url: web.url, readyMs: Date.now() - startedAt }, `Brainstorm is ready — open ${web.url}`);
  if (config.models.demoMode) logger.warn('Models are SIMULATED (demo mode). Set OPENROUTER_API_KEY in .env to use real models.');

  const signal = await stopSignal;
  logger.info({ signal }, 'stopping');
  await web.stop();
  await bot?.stop();
  await app.stop();
  logger.info('stopped cleanly');
  process.exit(0);
}
