/**
 * A bot that comes online and stays silent is the worst first run. Each Discord setup mistake an admin can make is
 * said in words they can act on: a refused token or intent stops the start with the fix; a brainstorm channel the
 * bot cannot use (a wrong id, a voice channel, a missing permission) is logged and shown in the console, and the start goes on.
 */
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../../src/bot/discord-bot.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from '../../fakes/discord/index.ts';
import { freePort, startAppProcess, waitForHealthy, type AppProcess } from '../../support/app-process.ts';
import { discordEnvironment, RecordingGateway } from './discord-harness.ts';

let fake: FakeDiscord | undefined;
let bot: DiscordBot | undefined;
let app: AppProcess | undefined;
afterEach(async () => {
  await app?.stop();
  await bot?.stop().catch(() => undefined);
  await fake?.close();
  app = bot = fake = undefined;
});

async function botFor(options: FakeDiscordOptions, environment: (fake: FakeDiscord) => Record<string, string> = () => ({})): Promise<DiscordBot> {
  fake = await startFakeDiscord(options);
  const config = buildConfig(discordEnvironment(fake, environment(fake)));
  bot = createDiscordBot({
    config,
    gateway: new RecordingGateway(),
    clock: new ManualClock('2026-05-01T09:00:00Z'),
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  return bot;
}

describe('a login Discord refuses stops the start with the fix', () => {
  it('the Message Content intent not turned on in the developer portal (gateway close 4014)', async () => {
    const started = (await botFor({ privilegedIntents: 0 })).start();
    await expect(started).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Turn on MESSAGE CONTENT INTENT under Privileged Gateway Intents/),
    });
  });

  it('a token Discord does not know', async () => {
    const started = (await botFor({}, () => ({ DISCORD_BOT_TOKEN: 'MTIz.not-the-token.abc' }))).start();
    await expect(started).rejects.toMatchObject({ message: expect.stringMatching(/^Discord refused DISCORD_BOT_TOKEN\. Copy the bot's token again/) });
  });
});

describe('brainstorm channels the bot cannot use', () => {
  it('are each named with what is wrong, and the bot starts anyway', async () => {
    const ready = await botFor({ voiceNames: ['standup'], forumNames: ['ideas'] }, (discord) => ({
      DISCORD_CHANNEL_ID: [discord.channels['brainstorm']!.id, discord.channels['standup']!.id, discord.channels['ideas']!.id, '123456789012345678'].join(','),
    }));
    fake!.setBotPermission(PermissionFlagsBits.CreatePublicThreads, false);
    fake!.setBotPermission(PermissionFlagsBits.ManageWebhooks, false);
    await ready.start();
    const problems = ready.setupProblems();
    const brainstorm = fake!.channels['brainstorm']!.id;
    expect(problems).toEqual([
      {
        severity: 'error',
        text: `The bot lacks Create Public Threads in DISCORD_CHANNEL_ID ${brainstorm} (#brainstorm): grant them to its role there, or it cannot hold sessions.`,
      },
      {
        severity: 'warning',
        text: expect.stringMatching(/^The bot lacks Manage Webhooks in DISCORD_CHANNEL_ID \d+ \(#brainstorm\): the participants will post as the bot/),
      },
      {
        severity: 'error',
        text: expect.stringMatching(/^DISCORD_CHANNEL_ID \d+ \(#standup\) is a voice channel: Brainstorm holds a session per topic in a thread/),
      },
      // A forum needs no Create Public Threads (people open its posts): only the webhooks are missed there.
      { severity: 'warning', text: expect.stringMatching(/^The bot lacks Manage Webhooks in DISCORD_CHANNEL_ID \d+ \(#ideas\)/) },
      { severity: 'error', text: expect.stringMatching(/^DISCORD_CHANNEL_ID 123456789012345678 does not exist, or is in a server the bot has not joined/) },
    ]);
  });

  it('a channel set up as the docs say has none', async () => {
    const ready = await botFor({});
    await ready.start();
    expect(ready.setupProblems()).toEqual([]);
  });

  it("are shown in the console's notices of the running app", async () => {
    fake = await startFakeDiscord({ voiceNames: ['standup'] });
    const environment = { ...discordEnvironment(fake), DISCORD_CHANNEL_ID: fake.channels['standup']!.id, LOG_LEVEL: 'info', NODE_ENV: 'development' };
    app = await startAppProcess({ port: await freePort(), environment });
    await waitForHealthy(app);
    const status = (await (await fetch(`${app.url}/api/status`)).json()) as { notices: string[] };
    expect(status.notices).toEqual([expect.stringMatching(/#standup\) is a voice channel/)]);
    expect(app.output()).toMatch(/is a voice channel/);
  });
});
