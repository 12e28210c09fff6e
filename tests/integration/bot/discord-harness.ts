/** A discord.js bot logged in to the fake Discord, with a recording gateway, for the bot's integration tests. */
import { buildConfig } from '../../../src/config/load-config.ts';
import { createDiscordBot, type DiscordBot } from '../../../src/bot/discord-bot.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { CommandInvocation, GatewayReply, InboundMessage, SessionGateway } from '../../../src/core/ports.ts';
import type { AppConfig } from '../../../src/config/app-config.ts';
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from '../../fakes/discord/index.ts';

/** A gateway that records what the bot hands it and answers what the test tells it to. */
export class RecordingGateway implements SessionGateway {
  readonly messages: InboundMessage[] = [];
  readonly commands: CommandInvocation[] = [];
  messageReply: (message: InboundMessage) => GatewayReply | null = () => null;
  commandReply: (invocation: CommandInvocation) => GatewayReply = (invocation) => ({ content: `ran ${invocation.name}`, private: false });

  async handleMessage(message: InboundMessage): Promise<GatewayReply | null> {
    this.messages.push(message);
    return this.messageReply(message);
  }

  async runCommand(invocation: CommandInvocation): Promise<GatewayReply> {
    this.commands.push(invocation);
    return this.commandReply(invocation);
  }

  async screen(): Promise<GatewayReply | null> {
    return null;
  }
}

/** The Discord part of the app config for a fake, plus anything extra. */
export function discordEnvironment(fake: FakeDiscord, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DISCORD_BOT_TOKEN: fake.token,
    DISCORD_GUILD_ID: fake.guildId,
    DISCORD_CHANNEL_ID: fake.channels['brainstorm']?.id ?? '',
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_CDN_URL: fake.cdnUrl,
    ADMIN_ROLE_ID: fake.roles.facilitators.id,
    ...extra,
  };
}

/** A fake Discord, a bot logged in to it, and the recording gateway behind the bot. */
export interface DiscordHarness {
  fake: FakeDiscord;
  bot: DiscordBot;
  gateway: RecordingGateway;
  config: AppConfig;
  clock: ManualClock;
  stop(): Promise<void>;
}

/** Starts the fake and the bot; `stop()` tears both down. */
export async function startDiscordHarness(options: FakeDiscordOptions = {}): Promise<DiscordHarness> {
  const fake = await startFakeDiscord(options);
  const config = buildConfig(discordEnvironment(fake));
  const gateway = new RecordingGateway();
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  const bot = createDiscordBot({ config, gateway, clock, logger: createLogger({ level: 'silent', secrets: [] }) });
  await bot.start();
  return {
    fake,
    bot,
    gateway,
    config,
    clock,
    async stop() {
      await bot.stop();
      await fake.close();
    },
  };
}
