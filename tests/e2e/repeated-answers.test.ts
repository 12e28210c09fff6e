/**
 * A participant stuck in a loop (as small and local models get, and any model once a discussion stalls) posts the
 * same answer round after round. Through the real app and SDK: its repeat is tried again with a cue, a second repeat
 * is withheld, the round tells the room once for all its repeaters, and a round that adds nothing starts no other.
 * Three stuck models must not flood the room with three notices for every message a person sends, and one stuck model
 * among good ones must not cost two calls in every AI round: it sits them out until a person speaks.
 */
import { describe, expect, it } from 'vitest';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { appOnFakeModels } from '../support/app-on-fake-models.ts';
import { proposeSession } from '../support/session-driver.ts';
import { FRESH, LOOP } from '../support/repeating-answers.ts';

const suite = appOnFakeModels({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '3' });

describe('a participant that repeats itself', () => {
  it('is asked for something new; said again, its answer is withheld, and a round of repeats ends the AI rounds', async () => {
    const { fake, test } = suite;
    for (const name of ['Claude', 'ChatGPT', 'Grok']) fake.script({ participant: name }, ...Array.from({ length: 8 }, () => replies.text(`${name}: ${LOOP}`)));
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();

    const said = test.transport.room(room);
    // Each said it once in the opening; its next answer repeated it, was tried again with the cue, then withheld.
    for (const name of ['Claude', 'ChatGPT', 'Grok']) {
      expect(said.filter((message) => message.speaker === name && message.content.includes(LOOP))).toHaveLength(1);
    }
    // One notice for the round, naming all three.
    const notices = () => test.transport.room(room).filter((message) => message.speaker === 'Brainstorm' && message.content.includes('repeated'));
    expect(notices().map((message) => message.content)).toEqual([
      expect.stringMatching(
        /^\w+, \w+ and \w+ repeated their own answers \(#\d+, #\d+, #\d+\), so they were not posted again\. They sit out the AI rounds until a person speaks\.$/,
      ),
    ]);
    for (const name of ['Claude', 'ChatGPT', 'Grok']) expect(notices()[0]?.content).toContain(name);
    const retried = fake.chats.filter(
      (chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok' && JSON.stringify(chat.body.messages).includes('You said this already in #'),
    );
    expect(retried).toHaveLength(1);
    // Nobody answered in that round: no other AI round starts (the loop guard would have allowed three).
    expect(fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok')).toHaveLength(3);
    const session = await test.app.repositories.sessions.findByRoom('memory', room);
    expect(session?.status).toBe('active');

    // A person speaks into the stuck room, twice: each time one notice answers them, with what they can do.
    for (const question of ['What would you cut first?', 'And who owns the payment path?']) {
      await test.say(room, question);
      await test.settle();
    }
    const afterPeople = notices().slice(1);
    expect(afterPeople).toHaveLength(2);
    for (const notice of afterPeople) expect(notice.content).toMatch(/so they were not posted again\. Nobody had anything new to add: ask something new/);
    // Each replies to the person's message it answered: a process that takes the session over does not ask again.
    const stored = await test.app.repositories.messages.listForSession(session!.id);
    const asked = stored.filter(
      (message) => message.speaker.kind === 'human' && message.text.endsWith('?') && message.text !== 'Feature flags for a small team',
    );
    const roomReplies = stored.filter((message) => message.speaker.kind === 'system' && message.text.includes('Nobody had anything new'));
    expect(roomReplies.map((message) => message.replyTo)).toEqual(asked.map((message) => [message.id]));
    expect(test.transport.room(room).filter((message) => message.content.includes('withheld'))).toEqual([]);
  });

  it('sits out the AI rounds after a repeat, while the others go on, and is asked again when a person speaks', async () => {
    const { fake, test } = suite;
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 8 }, () => replies.text(`Grok: ${LOOP}`)));
    for (const name of ['Claude', 'ChatGPT']) fake.script({ participant: name }, ...FRESH.map((point) => replies.text(`${name} adds: ${point}`)));
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    const grokCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok').length;
    const claudeCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Claude').length;

    // Three rounds (the opening and two AI rounds): Grok said its line, repeated it (the try and its retry), then rested.
    expect(claudeCalls()).toBe(3);
    expect(grokCalls()).toBe(3);
    const notices = () => test.transport.room(room).filter((message) => message.speaker === 'Brainstorm' && message.content.includes('repeated'));
    expect(notices().map((message) => message.content)).toEqual([
      expect.stringMatching(/^Grok repeated its own answer #\d+, so it was not posted again\. It sits out the AI rounds until a person speaks\.$/),
    ]);

    // A person's round asks Grok again (it repeats: the try and its retry); the AI rounds after it go on without it.
    await test.say(room, 'Which of these would you try first?');
    await test.settle();
    expect(claudeCalls()).toBe(6);
    expect(grokCalls()).toBe(5);
    expect(notices()).toHaveLength(1);
  });
});
