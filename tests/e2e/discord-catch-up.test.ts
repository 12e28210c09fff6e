/**
 * Words said while the bot was down are not lost. Discord replays nothing to a new gateway session, so after a
 * restart the bot reads every live thread and brainstorm channel back from the last message it saw: a question is
 * answered, a topic opens its session, a `!stop` stops; a message read twice acts once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../fakes/discord/index.ts';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { createRestartableDiscordApp, type RestartableDiscordApp } from '../support/restartable-discord-app.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import type { TestApp } from '../support/test-app.ts';

let app: RestartableDiscordApp;
let discord: RestartableDiscordApp['discord'];
let models: RestartableDiscordApp['models'];
beforeAll(async () => {
  app = await createRestartableDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' });
  ({ discord, models } = app);
});
afterAll(async () => app?.close());

const startProcess = () => app.start();
const stopProcess = () => app.stop();

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
    const { bot, test } = app.running ?? (await startProcess());
    const sessionsBefore = (await test.app.repositories.sessions.listRecent(50)).length;
    const messagesBefore = discord.messagesIn(roomId).length;
    await bot.catchUp();
    await test.settle();
    expect((await test.app.repositories.sessions.listRecent(50)).length).toBe(sessionsBefore);
    expect(discord.messagesIn(roomId).length).toBe(messagesBefore);
  });
});

describe('a !stop said while the bot was down, in a session with a question waiting', () => {
  let restartable: RestartableDiscordApp;
  beforeAll(async () => {
    restartable = await createRestartableDiscordApp();
  });
  afterAll(async () => restartable?.close());

  it('wins over the round the restart would resume: no participant answers after it', async () => {
    const { discord: fake, models: fakeModels } = restartable;
    const { bot, test } = await restartable.start();
    fakeModels.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages: 60 })));
    const topic = fake.post(fake.channels['brainstorm']!.id, fake.people.ada, 'How do we keep the release notes short?');
    await bot.handled(topic.id);
    await test.settle();
    const room = topic.threadId!;
    await bot.handled(fake.post(room, fake.people.ada, '!approve').id);
    await test.settle();
    // Ada asks; the process stops before any participant answered her.
    for (const participant of ['Claude', 'ChatGPT', 'Grok']) fakeModels.script({ participant }, replies.hang());
    await bot.handled(fake.post(room, fake.people.ada, 'Who reads them, really?').id);
    await restartable.stop();

    const stop = fake.post(room, fake.people.ada, '!stop');
    const { test: restarted } = await restartable.start();
    expect(await sessionStatus(restarted, room)).toBe('stopped');
    const participantsAfterStop = fake
      .messagesIn(room)
      .filter((message) => message.order > stop.order && ['Claude', 'ChatGPT', 'Grok'].includes(message.displayName ?? ''));
    expect(participantsAfterStop.map((message) => `${message.displayName}: ${message.content.slice(0, 60)}`)).toEqual([]);
  });
});
