/**
 * Edits and deletions made while the bot was down reach the session. Discord sends MESSAGE_UPDATE and
 * MESSAGE_DELETE only to a connected gateway session, so after a restart the bot reads each live room back: an
 * edited question is stored as it now reads, a deleted message leaves the session, and the answers after the
 * restart read neither the old words nor the deleted ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscordBot } from '../../src/bot/discord-bot.ts';
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

async function post(bot: DiscordBot, test: TestApp, channelId: string, content: string): Promise<RecordedMessage> {
  const message = discord.post(channelId, discord.people.bob, content);
  await bot.handled(message.id);
  await test.settle();
  return message;
}

describe('edits and deletions made while the bot was down', () => {
  it('reach the session after the restart, before the answers to what was said meanwhile', async () => {
    const first = await startProcess();
    models.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages: 60 })));
    const topic = discord.post(discord.channels['brainstorm']!.id, discord.people.ada, 'How should we roll out feature flags?');
    await first.bot.handled(topic.id);
    await first.test.settle();
    const roomId = topic.threadId!;
    await post(first.bot, first.test, roomId, '!approve');
    const question = await post(first.bot, first.test, roomId, 'Should flags live in a config file?');
    const secret = await post(first.bot, first.test, roomId, 'Our launch date is March 3rd, keep it quiet.');
    const kept = await post(first.bot, first.test, roomId, 'Ownership matters more than tooling.');
    const sessionId = (await first.test.app.repositories.sessions.findByRoom('discord', roomId))!.id;
    await stopProcess();

    // While no process is connected: Discord applies them, and no gateway session will ever hear of them.
    discord.editAsAuthor(question, 'Should flags live in a hosted flag service?');
    discord.deleteAsPerson(secret);
    const meanwhile = discord.post(roomId, discord.people.bob, 'Also: who cleans up old flags?');
    const requestsBefore = models.chats.length;

    const second = await startProcess();
    const stored = await second.test.app.repositories.messages.listForSession(sessionId);
    const from = (message: RecordedMessage) => stored.find((entry) => entry.externalIds.includes(message.id));
    expect(from(question)).toMatchObject({ text: 'Should flags live in a hosted flag service?', edited: true });
    expect(from(secret)).toBeUndefined();
    expect(from(kept)?.text).toBe('Ownership matters more than tooling.');
    expect(from(meanwhile)).toBeDefined();
    // The answers to the message said meanwhile read the room as it stands now.
    const answers = models.chats.slice(requestsBefore).filter((chat) => chat.agent.role === 'participant');
    expect(answers.length).toBeGreaterThan(0);
    const prompt = JSON.stringify(answers.map((chat) => chat.body.messages));
    expect(prompt).toContain('hosted flag service');
    // The person's words as they stood; the answers given before may still quote them, as replies do.
    expect(prompt).not.toContain('Should flags live in a config file?');
    expect(prompt).not.toContain('Our launch date is March 3rd');
  });

  it('a second read back changes nothing', async () => {
    const { bot, test } = app.running ?? (await startProcess());
    const sessions = await test.app.repositories.sessions.listRecent(5);
    const before = await test.app.repositories.messages.listForSession(sessions[0]!.id);
    await bot.catchUp();
    await test.settle();
    expect(await test.app.repositories.messages.listForSession(sessions[0]!.id)).toEqual(before);
  });
});
