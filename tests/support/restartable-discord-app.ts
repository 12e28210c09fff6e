/**
 * The app behind the fake Discord, as a process that can be stopped and started again on the same Postgres database
 * and the same Discord: what a restart (or a crash) looks like to the bot. Discord keeps what was said meanwhile;
 * no gateway session replays it.
 */
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../../src/bot/discord-bot.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { randomIds } from '../../src/core/ids.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord/index.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { discordEnvironment } from '../integration/bot/discord-harness.ts';
import { createThrowawayPostgres } from './databases.ts';
import { fakeEnvironment, startTestApp, type TestApp } from './test-app.ts';

/** One run of the app: its bot and the app behind it. */
export interface AppRun {
  bot: DiscordBot;
  test: TestApp;
}

/** The fakes and database that outlive the app's runs, and the current run (null while it is down). */
export interface RestartableDiscordApp {
  discord: FakeDiscord;
  models: FakeOpenRouter;
  clock: ManualClock;
  running: AppRun | null;
  /** Starts a run (bot connected, catch-up done, everything settled). */
  start(): Promise<AppRun>;
  /** Stops the current run, if any. */
  stop(): Promise<void>;
  /** Stops the run, the fakes, and drops the database. */
  close(): Promise<void>;
}

/** Starts the fakes and a throwaway Postgres database; `environment` adds to the app's variables. */
export async function createRestartableDiscordApp(environment: Record<string, string> = {}): Promise<RestartableDiscordApp> {
  const discord = await startFakeDiscord();
  const models = await startFakeOpenRouter();
  const database = await createThrowawayPostgres();
  const variables = { ...fakeEnvironment(models.url, { DATABASE_URL: database.url, ...environment }), ...discordEnvironment(discord) };
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  const harness: RestartableDiscordApp = {
    discord,
    models,
    clock,
    running: null,
    async start() {
      const options = { config: buildConfig(variables), clock, logger: createLogger({ level: 'silent', secrets: [] }) };
      const connection = createDiscordConnection(options);
      // Random ids, as in production: a restarted process must not reuse the first one's session ids.
      const test = await startTestApp(variables, {
        clock,
        ids: randomIds,
        transports: [connection.transport],
        database: { kind: 'postgres', url: database.url },
        resume: false,
      });
      const bot = createDiscordBot({ ...options, gateway: test.app.gateway, connection });
      // As `npm start` does: what was said while no process ran is read back before the sessions resume.
      await bot.start();
      await test.app.resume();
      await test.settle();
      harness.running = { bot, test };
      return harness.running;
    },
    async stop() {
      await harness.running?.bot.stop();
      await harness.running?.test.stop();
      harness.running = null;
    },
    async close() {
      await harness.stop();
      await models.close();
      await discord.close();
      await database.drop();
    },
  };
  return harness;
}
