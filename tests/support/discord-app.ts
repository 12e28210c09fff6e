/** The whole app behind a real discord.js client: the fake Discord, the fake OpenRouter, the bot and the app. */
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../../src/bot/discord-bot.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions, type FakeUser, type RecordedMessage } from '../fakes/discord/index.ts';
import type { PostOptions } from '../fakes/discord/person-actions.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { discordEnvironment } from '../integration/bot/discord-harness.ts';
import { fakeEnvironment, startTestApp, type TestApp } from './test-app.ts';

/** A running Discord-fronted app and its fakes. */
export interface DiscordApp {
  discord: FakeDiscord;
  models: FakeOpenRouter;
  bot: DiscordBot;
  test: TestApp;
  stop(): Promise<void>;
}

/** How the fake Discord is set up, and which of its channels are brainstorm channels (default: `brainstorm`). */
export interface DiscordAppSetup {
  discord?: FakeDiscordOptions;
  brainstormChannels?: string[];
}

/** Starts the fakes, the app with the Discord transport, and the bot; `environment` adds to the fakes' variables. */
export async function startDiscordApp(environment: Record<string, string> = {}, setup: DiscordAppSetup = {}): Promise<DiscordApp> {
  const discord = await startFakeDiscord(setup.discord);
  const models = await startFakeOpenRouter();
  const channelIds = (setup.brainstormChannels ?? ['brainstorm']).map((name) => discord.channels[name]!.id).join(',');
  const variables = { ...fakeEnvironment(models.url, environment), ...discordEnvironment(discord, { DISCORD_CHANNEL_ID: channelIds }) };
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  // As in production: the connection before the app (which needs its transport), the bot's handlers after it.
  const options = { config: buildConfig(variables), clock, logger: createLogger({ level: 'silent', secrets: [] }) };
  const connection = createDiscordConnection(options);
  const test = await startTestApp(variables, { clock, transports: [connection.transport] });
  const bot = createDiscordBot({ ...options, gateway: test.app.gateway, connection });
  await bot.start();
  return {
    discord,
    models,
    bot,
    test,
    async stop() {
      await bot.stop();
      await test.stop();
      await models.close();
      await discord.close();
    },
  };
}

/** A person posts in Discord; resolves once the bot handled it and the app did everything it leads to. */
export async function postAndSettle(
  running: Pick<DiscordApp, 'discord' | 'bot' | 'test'>,
  channelId: string,
  person: FakeUser,
  content: string,
  options: PostOptions = {},
): Promise<RecordedMessage> {
  const message = running.discord.post(channelId, person, content, options);
  await running.bot.handled(message.id);
  await running.test.settle();
  return message;
}
