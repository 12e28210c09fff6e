/**
 * People edit and delete what they posted. The stored message follows: the models' next turns read the edited text
 * and nothing deleted, the transcript shows the edit, and a key pasted in an edit is refused and taken down like a
 * key in a new message. An edit starts no new answers. A file shared without a word is named in the session too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/domain.ts';
import type { FakeUser, RecordedMessage } from '../fakes/discord/index.ts';
import { postAndSettle, startDiscordApp, type DiscordApp } from '../support/discord-app.ts';

let running: DiscordApp;
let roomId = '';
let sessionId = '';
beforeAll(async () => {
  running = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' });
  const { discord, test } = running;
  roomId = (await say(discord.channels['brainstorm']!.id, discord.people.ada, 'How should a small team adopt feature flags?')).threadId!;
  await say(roomId, discord.people.ada, 'We are 5 engineers shipping a SaaS.');
  await say(roomId, discord.people.ada, '!approve');
  sessionId = (await test.app.repositories.sessions.findByRoom('discord', roomId))!.id;
});
afterAll(async () => running?.stop());

const say = (channelId: string, person: FakeUser, content: string): Promise<RecordedMessage> => postAndSettle(running, channelId, person, content);

async function edit(message: RecordedMessage, content: string): Promise<void> {
  running.discord.editAsAuthor(message, content);
  await running.bot.handled(`edit-${message.id}`);
  await running.test.settle();
}

async function remove(message: RecordedMessage): Promise<void> {
  running.discord.deleteAsPerson(message);
  await running.bot.handled(`delete-${message.id}`);
  await running.test.settle();
}

const stored = async (): Promise<ChatMessage[]> => running.test.app.repositories.messages.listForSession(sessionId);
const storedFrom = async (message: RecordedMessage) => (await stored()).find((entry) => entry.externalIds.includes(message.id));
const participantRequests = () => running.models.chats.filter((chat) => chat.agent.role === 'participant');
/** What the participants were sent in the last round. */
const lastRoundPrompt = () => JSON.stringify(participantRequests().at(-1)?.body.messages);

describe("people's edits and deletions", () => {
  it('an edit replaces the stored text: the next round reads the new words, not the old, and no one answers twice', async () => {
    const { discord } = running;
    const question = await say(roomId, discord.people.bob, 'Should flags live in a config file?');
    const requestsAfterQuestion = participantRequests().length;
    await edit(question, 'Should flags live in a hosted flag service?');
    expect(participantRequests().length).toBe(requestsAfterQuestion);
    expect(await storedFrom(question)).toMatchObject({ text: 'Should flags live in a hosted flag service?', edited: true });
    await say(roomId, discord.people.ada, 'And who owns each flag?');
    expect(lastRoundPrompt()).toContain('hosted flag service');
    // The person's words as they stood; the answers given before the edit may still quote them, as replies do.
    expect(lastRoundPrompt()).not.toContain('Should flags live in a config file?');
  });

  it('an edit made at once, while the message is still being stored, is applied; so is a deletion made at once', async () => {
    const { discord, bot, test } = running;
    // With a text file, whose reading from the CDN keeps the message's handling busy while the edit arrives.
    const typo = discord.post(roomId, discord.people.bob, 'Flags shoud expire after a quarter.', {
      files: [{ name: 'policy.md', contentType: 'text/markdown', content: 'Flags older than 90 days are reviewed.' }],
    });
    discord.editAsAuthor(typo, 'Flags should expire after a quarter.');
    const regret = discord.post(roomId, discord.people.bob, 'Wrong thread, sorry.');
    discord.deleteAsPerson(regret);
    await Promise.all([bot.handled(typo.id), bot.handled(`edit-${typo.id}`), bot.handled(regret.id), bot.handled(`delete-${regret.id}`)]);
    await test.settle();
    expect(await storedFrom(typo)).toMatchObject({
      text: expect.stringMatching(/^Flags should expire after a quarter\.\n\[attached file: policy\.md/),
      edited: true,
    });
    expect(await storedFrom(regret)).toBeUndefined();
  });

  it('an edit or a deletion of a message discord.js swept from its cache (after 30 minutes) is applied all the same', async () => {
    const { discord, bot } = running;
    expect(bot.client.options.sweepers?.messages).toEqual({ interval: 900, lifetime: 1800 });
    const question = await say(roomId, discord.people.bob, 'Do we need a flag for every feature?');
    const aside = await say(roomId, discord.people.bob, 'Posted in the wrong place, ignore.');
    // As the sweeper does once they are 30 minutes old: every cached message goes, the room's and the bot's alike.
    expect(bot.client.sweepers.sweepMessages(() => true)).toBeGreaterThan(0);
    await edit(question, 'Do we need a flag for every risky feature?');
    await remove(aside);
    expect(await storedFrom(question)).toMatchObject({ text: 'Do we need a flag for every risky feature?', edited: true });
    expect(await storedFrom(aside)).toBeUndefined();
  });

  it('a deleted message leaves the transcript and every later prompt', async () => {
    const { discord } = running;
    const regret = await say(roomId, discord.people.bob, 'Our launch date is March 3rd, keep it quiet.');
    expect(await storedFrom(regret)).toBeDefined();
    await remove(regret);
    expect(await storedFrom(regret)).toBeUndefined();
    await say(roomId, discord.people.ada, 'What is the cheapest first step?');
    expect(lastRoundPrompt()).not.toContain('Our launch date is March 3rd');
  });

  it('a key pasted in an edit is refused and never stored; the author is asked to take it down, and then it is gone', async () => {
    const { discord, test } = running;
    const note = await say(roomId, discord.people.bob, 'Here is our staging config.');
    const key = `sk-or-v1-${'9f'.repeat(32)}`;
    await edit(note, `Here is our staging config: OPENROUTER_API_KEY=${key}`);
    expect((await storedFrom(note))?.text).toBe('Here is our staging config.');
    // The bot lacks Manage Messages here, so it asks the author to delete the message.
    const warning = discord
      .messagesIn(roomId)
      .filter((message) => message.origin === 'bot')
      .at(-1);
    expect(warning?.content).toMatch(/delete your message/i);
    expect(warning?.content).not.toContain(key);
    await remove(note);
    expect(await storedFrom(note)).toBeUndefined();
    const everything = JSON.stringify(await test.app.repositories.messages.search('staging', 50));
    expect(everything).not.toContain(key);
  });

  it("the record follows: the Scribe's next pass is told what was edited and what was deleted, once", async () => {
    const { discord, test, models } = running;
    const scribePrompts = () => models.chats.filter((chat) => chat.agent.role === 'scribe').map((chat) => JSON.stringify(chat.body.messages));
    const kept = await say(roomId, discord.people.bob, 'Budget: two engineers for a month.');
    const dropped = await say(roomId, discord.people.bob, 'Ship it to every customer on day one.');
    await test.clock.advance(61_000);
    await test.settle();
    expect(scribePrompts().at(-1)).toContain('two engineers for a month');
    const [keptNumber, droppedNumber] = [(await storedFrom(kept))!.number, (await storedFrom(dropped))!.number];
    const bob = (await storedFrom(kept))!.speaker.name;
    await edit(kept, 'Budget: three engineers for a month.');
    await remove(dropped);
    const passes = scribePrompts().length;
    await test.clock.advance(61_000);
    await test.settle();
    expect(scribePrompts().length).toBe(passes + 1);
    const prompt = scribePrompts().at(-1)!;
    expect(prompt).toContain(`#${keptNumber} [${bob} (person)] was edited by its author; it now says: Budget: three engineers for a month.`);
    expect(prompt).toContain(`#${droppedNumber} [${bob} (person)] was deleted by its author`);
    // Applied once: a later pass (for a new message) is not told again.
    await say(roomId, discord.people.ada, 'Agreed on the budget.');
    await test.clock.advance(61_000);
    await test.settle();
    expect(scribePrompts().at(-1)).not.toContain('by its author');
  });

  it('a file shared in the thread is named in the session (a screenshot alone included), so nobody treats it as unsaid', async () => {
    const { discord } = running;
    const shot = discord.post(roomId, discord.people.bob, '', { files: [{ name: 'rollout-dashboard.png', contentType: 'image/png' }] });
    await running.bot.handled(shot.id);
    await running.test.settle();
    const stored = await storedFrom(shot);
    expect(stored?.text).toMatch(/^\[attached image: rollout-dashboard\.png <https:\/\/cdn\.discordapp\.com\/attachments\/.+>\]$/);
    expect(lastRoundPrompt()).toContain('attached image: rollout-dashboard.png');
  });

  it('an edit that changes nothing (a link preview unfurling) leaves the message as it was', async () => {
    const { discord } = running;
    const link = await say(roomId, discord.people.bob, 'See https://example.com/flags for the pattern.');
    await edit(link, 'See https://example.com/flags for the pattern.');
    expect((await storedFrom(link))?.edited).toBeUndefined();
  });
});
