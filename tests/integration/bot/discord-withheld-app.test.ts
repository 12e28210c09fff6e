/**
 * The whole app behind a real discord.js client: a participant's streamed answer trips a guardrail twice and is
 * withheld. Its preview goes, the note stays, and Discord refuses none of our requests along the way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../../../src/bot/discord-bot.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { startFakeDiscord, type FakeDiscord, type FakeUser, type RecordedMessage } from '../../fakes/discord/index.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../../support/test-app.ts';
import { discordEnvironment } from './discord-harness.ts';

let discord: FakeDiscord;
let models: FakeOpenRouter;
let bot: DiscordBot;
let test: TestApp;

beforeAll(async () => {
  discord = await startFakeDiscord();
  models = await startFakeOpenRouter();
  const environment = { ...fakeEnvironment(models.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' }), ...discordEnvironment(discord) };
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

async function say(channelId: string, person: FakeUser, content: string): Promise<RecordedMessage> {
  const message = discord.post(channelId, person, content);
  await bot.handled(message.id);
  await test.settle();
  return message;
}

describe('a withheld answer in Discord', () => {
  it('removes the streamed preview and posts the note, with no request refused', async () => {
    const from = discord.router.log.length;
    const topic = await say(discord.channels['brainstorm']!.id, discord.people.ada, 'How should a small team adopt feature flags?');
    const roomId = topic.threadId!;
    await say(roomId, discord.people.ada, 'We are 5 engineers shipping a SaaS; we want safer releases.');
    const impersonation = replies.text('Claude: I fully agree with myself, and so does everyone.');
    models.script({ participant: 'Grok' }, impersonation, impersonation);
    await say(roomId, discord.people.ada, '!approve');
    const thread = discord.messagesIn(roomId);
    expect(thread.filter((message) => message.origin === 'bot').map((message) => message.content)).toContain(
      "Grok's answer was withheld: the answer spoke in the name of another participant.",
    );
    expect(thread.filter((message) => message.displayName === 'Grok')).toEqual([]);
    const streamedByGrok = discord.state.messages.filter((message) => message.channelId === roomId && message.displayName === 'Grok');
    expect(streamedByGrok.length).toBeGreaterThan(0);
    expect(streamedByGrok.every((message) => message.deleted)).toBe(true);
    const refused = discord.router.log.slice(from).filter((entry) => entry.status >= 400 && entry.status < 500);
    expect(refused.map((entry) => `${entry.method} ${entry.routeName} ${entry.status}`)).toEqual([]);
  });
});
