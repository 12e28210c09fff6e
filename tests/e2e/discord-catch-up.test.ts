/**
 * Words said while the bot was down are not lost. Discord replays nothing to a new gateway session, so after a
 * restart the bot reads every live thread and brainstorm channel back from the last message it saw: a question is
 * answered, a topic opens its session, a `!stop` stops; a message read twice acts once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../../src/bot/discord-bot.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { randomIds } from '../../src/core/ids.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { startFakeDiscord, type FakeDiscord, type RecordedMessage } from '../fakes/discord/index.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { discordEnvironment } from '../integration/bot/discord-harness.ts';
import { createThrowawayPostgres } from '../support/databases.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let discord: FakeDiscord;
let models: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };
let environment: Record<string, string>;
const clock = new ManualClock('2026-05-01T09:00:00Z');
let running: { bot: DiscordBot; test: TestApp } | null = null;

async function startProcess(): Promise<{ bot: DiscordBot; test: TestApp }> {
  const options = { config: buildConfig(environment), clock, logger: createLogger({ level: 'silent', secrets: [] }) };
  const connection = createDiscordConnection(options);
  // Random ids, as in production: a restarted process must not reuse the first one's session ids.
  const test = await startTestApp(environment, {
    clock,
    ids: randomIds,
    transports: [connection.transport],
    database: { kind: 'postgres', url: database.url },
  });
  const bot = createDiscordBot({ ...options, gateway: test.app.gateway, connection });
  await bot.start();
  await test.settle();
  running = { bot, test };
  return running;
}

async function stopProcess(): Promise<void> {
  await running?.bot.stop();
  await running?.test.stop();
  running = null;
}

beforeAll(async () => {
  discord = await startFakeDiscord();
  models = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
  environment = { ...fakeEnvironment(models.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '0', DATABASE_URL: database.url }), ...discordEnvironment(discord) };
});
afterAll(async () => {
  await stopProcess();
  await models?.close();
  await discord?.close();
  await database?.drop();
});

const brainstorm = () => discord.channels['brainstorm']!.id;
const personas = (roomId: string): RecordedMessage[] => discord.messagesIn(roomId).filter((message) => message.origin === 'webhook');

async function sessionStatus(test: TestApp, roomId: string): Promise<string | undefined> {
  return (await test.app.repositories.sessions.findByRoom('discord', roomId))?.status;
}

describe('catch-up after the bot was down', () => {
  let roomId = '';

  it('answers a question asked while the bot was down, and opens a session for a topic posted meanwhile', async () => {
    const { bot, test } = await startProcess();
    models.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages: 60 })));
    const topic = discord.post(brainstorm(), discord.people.ada, 'How do we make on-call less painful?');
    await bot.handled(topic.id);
    await test.settle();
    roomId = topic.threadId!;
    const approve = discord.post(roomId, discord.people.ada, '!approve');
    await bot.handled(approve.id);
    await test.settle();
    expect(await sessionStatus(test, roomId)).toBe('active');
    await stopProcess();

    // Said while no process was connected: Discord keeps it, but no gateway session will ever deliver it.
    const question = discord.post(roomId, discord.people.ada, 'What would a blameless rota look like for five people?');
    const newTopic = discord.post(brainstorm(), discord.people.ada, 'Should we adopt trunk-based development?');
    const answeredBefore = personas(roomId).length;

    const second = await startProcess();
    const session = await second.test.app.repositories.sessions.findByRoom('discord', roomId);
    const stored = await second.test.app.repositories.messages.listForSession(session!.id);
    expect(stored.some((message) => message.externalIds.includes(question.id))).toBe(true);
    const answers = personas(roomId)
      .slice(answeredBefore)
      .filter((message) => ['Claude', 'ChatGPT', 'Grok'].includes(message.displayName ?? ''));
    expect(answers.length).toBeGreaterThan(0);
    // The topic posted while down has its own thread and session now.
    const reread = discord.state.messages.find((message) => message.id === newTopic.id);
    expect(reread?.threadId).toBeTruthy();
    expect(await sessionStatus(second.test, reread!.threadId!)).toMatch(/planning|awaiting_approval/);
  });

  it('a !stop sent while the bot was down stops the session after the restart', async () => {
    await stopProcess();
    discord.post(roomId, discord.people.ada, '!stop');
    const { test } = await startProcess();
    expect(await sessionStatus(test, roomId)).toBe('stopped');
  });

  it('reading the same messages again acts on none of them twice', async () => {
    const { bot, test } = running ?? (await startProcess());
    const sessionsBefore = (await test.app.repositories.sessions.listRecent(50)).length;
    const messagesBefore = discord.messagesIn(roomId).length;
    await bot.catchUp();
    await test.settle();
    expect((await test.app.repositories.sessions.listRecent(50)).length).toBe(sessionsBefore);
    expect(discord.messagesIn(roomId).length).toBe(messagesBefore);
  });
});
