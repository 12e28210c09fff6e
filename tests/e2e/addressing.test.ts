/**
 * A person who speaks to one participant by name ("Grok, …", "@Claude"), or replies to one of its messages in
 * Discord, is answered by that one; the others hear it and may take it up in the rounds that follow. A message for
 * the room is answered by everyone.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import type { PostOptions } from '../fakes/discord/person-actions.ts';
import { postAndSettle, startDiscordApp } from '../support/discord-app.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
});
afterAll(async () => fake?.close());
beforeEach(async () => {
  fake.reset();
  // No AI rounds after a person's turn: what is measured is who answers the person.
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' }));
});
afterEach(async () => test?.stop());

/** Who answered the person's last message in the room. */
async function answerersOf(room: string, text: string): Promise<string[]> {
  const session = (await test.app.repositories.sessions.findByRoom('memory', room))!;
  const messages = await test.app.repositories.messages.listForSession(session.id);
  const asked = messages.findLast((message) => message.speaker.kind === 'human' && message.text === text)!;
  return messages
    .filter((message) => message.speaker.kind === 'participant' && message.replyTo.includes(asked.id))
    .map((message) => message.speaker.name)
    .sort();
}

describe('speaking to a participant by name', () => {
  it('"Grok, …" is answered by Grok alone, "@Claude" by Claude, a question for the room by all three', async () => {
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    for (const [text, expected] of [
      ['Grok, what would you cut first?', ['Grok']],
      ['Thanks. @Claude, is that safe?', ['Claude']],
      ['Only two of us know billing. ChatGPT, would a strangler fig help?', ['ChatGPT']],
      ['And what would you drop, Grok?', ['Grok']],
      ['What does everyone think about weekly releases?', ['ChatGPT', 'Claude', 'Grok']],
    ] as const) {
      await test.say(room, text);
      await test.settle();
      expect(await answerersOf(room, text)).toEqual(expected);
    }
  });
});

describe('answering a participant in Discord', () => {
  it("a reply to Grok's message is answered by Grok alone", async () => {
    const running = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' });
    try {
      const { discord, test: app } = running;
      const say = (channelId: string, content: string, options: PostOptions = {}) => postAndSettle(running, channelId, discord.people.ada, content, options);
      const roomId = (await say(discord.channels['brainstorm']!.id, 'How should a small team adopt feature flags?')).threadId!;
      await say(roomId, 'We are 5 engineers shipping a SaaS.');
      await say(roomId, '!approve');
      const fromGrok = discord.messagesIn(roomId).findLast((message) => message.origin === 'webhook' && message.displayName === 'Grok')!;
      const reply = await say(roomId, 'Why that one first?', { replyTo: fromGrok });
      const session = (await app.app.repositories.sessions.findByRoom('discord', roomId))!;
      const messages = await app.app.repositories.messages.listForSession(session.id);
      const asked = messages.find((message) => message.externalIds.includes(reply.id))!;
      expect(asked.addressedTo).toEqual(['Grok']);
      const answerers = messages
        .filter((message) => message.speaker.kind === 'participant' && message.replyTo.includes(asked.id))
        .map((message) => message.speaker.name);
      expect(answerers).toEqual(['Grok']);
    } finally {
      await running.stop();
    }
  });
});
