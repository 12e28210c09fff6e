/**
 * Issue 12 on Discord (real discord.js against the fake, the whole app behind it): a refused secret does not stay
 * public. With Manage Messages the bot deletes the message; without it (Discord answers 403 / 50013) it asks the
 * person to. `/brainstorm start` and `/brainstorm explore` screen their argument before anything is posted.
 */
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../../src/bot/discord-bot.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { startFakeDiscord, type FakeDiscord, type FakeUser, type RecordedMessage } from '../fakes/discord/index.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { discordEnvironment } from '../integration/bot/discord-harness.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';
import { gluedAwsKey, gluedOpenRouterKey } from '../unit/agents/guardrails/secret-samples.ts';

let discord: FakeDiscord;
let models: FakeOpenRouter;
let bot: DiscordBot;
let test: TestApp;

beforeAll(async () => {
  discord = await startFakeDiscord();
  models = await startFakeOpenRouter({ fallback: 'literal' });
  const environment = { ...fakeEnvironment(models.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' }), ...discordEnvironment(discord) };
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  const options = { config: buildConfig(environment), clock, logger: createLogger({ level: 'silent', secrets: [] }) };
  const connection = createDiscordConnection(options);
  test = await startTestApp(environment, { clock, transports: [connection.transport] });
  bot = createDiscordBot({ ...options, gateway: test.app.gateway, connection });
  await bot.start();
});
afterAll(async () => {
  await bot?.stop();
  await test?.stop();
  await models?.close();
  await discord?.close();
});

const brainstorm = () => discord.channels['brainstorm']!.id;

async function say(channelId: string, person: FakeUser, content: string): Promise<RecordedMessage> {
  const message = discord.post(channelId, person, content);
  await bot.handled(message.id);
  await test.settle();
  return message;
}

/** What the bot itself sent to Discord, and what anyone can still read there. */
function expectNotPublished(secret: string): void {
  expect(JSON.stringify(discord.router.log.map((entry) => entry.body))).not.toContain(secret);
  const readable = discord.state.messages.filter((message) => !message.deleted && (message.flags & 64) === 0);
  expect(readable.some((message) => message.content.includes(secret))).toBe(false);
}

function botReplyTo(channelId: string): string {
  return (
    discord
      .messagesIn(channelId)
      .filter((message) => message.origin === 'bot')
      .at(-1)?.content ?? ''
  );
}

describe('a refused secret on Discord', () => {
  it('asks the person to delete it when the bot lacks Manage Messages (403, 50013)', async () => {
    const secret = gluedAwsKey();
    const threadsBefore = [...discord.state.channels.values()].filter((channel) => channel.kind === 'thread').length;
    const message = await say(brainstorm(), discord.people.bob, `Topic: our AWS setup ${secret}`);
    expect(discord.state.findMessage(message.id)?.deleted).toBe(false);
    const refused = discord.router.log.find((entry) => entry.routeName === 'message.delete' && entry.path.endsWith(message.id));
    expect(refused?.status).toBe(403);
    expect(botReplyTo(brainstorm())).toMatch(/Please delete your message now/);
    expect([...discord.state.channels.values()].filter((channel) => channel.kind === 'thread').length).toBe(threadsBefore);
    expect(JSON.stringify(models.requests)).not.toContain(secret);
  });

  it('deletes it when the bot has Manage Messages, and says so', async () => {
    discord.setBotPermission(PermissionFlagsBits.ManageMessages, true);
    try {
      const secret = gluedOpenRouterKey(31);
      const message = await say(brainstorm(), discord.people.bob, `try x_${secret} on the staging box`);
      expect(discord.state.findMessage(message.id)?.deleted).toBe(true);
      expect(botReplyTo(brainstorm())).toMatch(/I deleted your message/);
      expectNotPublished(secret);
      expect(JSON.stringify(models.requests)).not.toContain(secret);
    } finally {
      discord.setBotPermission(PermissionFlagsBits.ManageMessages, false);
    }
  });

  it('/brainstorm start screens the topic before posting it', async () => {
    const secret = gluedOpenRouterKey(41);
    const interaction = discord.runSlashCommand({
      channelId: brainstorm(),
      user: discord.people.ada,
      command: 'brainstorm',
      subcommand: 'start',
      options: { topic: `Rotate ${secret} safely` },
    });
    await bot.handled(interaction.id);
    await test.settle();
    expectNotPublished(secret);
    expect(JSON.stringify(models.requests)).not.toContain(secret);
    const sessions = await test.app.repositories.sessions.listRecent(50);
    expect(JSON.stringify(sessions)).not.toContain(secret);
  });

  it('/brainstorm explore screens the subtopic before anything is posted', async () => {
    const topic = await say(brainstorm(), discord.people.ada, 'How should a small team adopt feature flags?');
    const roomId = topic.threadId!;
    const secret = gluedOpenRouterKey(51);
    const threadsBefore = [...discord.state.channels.values()].filter((channel) => channel.kind === 'thread').length;
    const interaction = discord.runSlashCommand({
      channelId: roomId,
      user: discord.people.ada,
      command: 'brainstorm',
      subcommand: 'explore',
      options: { topic: `keys like ${secret}` },
    });
    await bot.handled(interaction.id);
    await test.settle();
    expectNotPublished(secret);
    expect([...discord.state.channels.values()].filter((channel) => channel.kind === 'thread').length).toBe(threadsBefore);
    expect(JSON.stringify(models.requests)).not.toContain(secret);
  });
});
