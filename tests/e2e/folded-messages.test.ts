/**
 * A person who writes faster than the room answers is folded (FloodGate): the extra message counts nothing against the
 * session's limits. Through the real app: a message folded after the round it followed had already read the history
 * is still answered, by a round of its own once that one ends. Before, it waited for a round that never came (with
 * answers for people only, or a round whose answers were all withheld), and the person met a silent room.
 */
import { describe, expect, it } from 'vitest';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { appOnFakeModels } from '../support/app-on-fake-models.ts';
import { proposeSession, questionUnderWay } from '../support/session-driver.ts';

// Participants answer people only: no AI round would ever read the folded message.
const suite = appOnFakeModels({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' });
const NAMES = ['Claude', 'ChatGPT', 'Grok'];

describe('a message folded while the room was answering', () => {
  it('is answered once the round it came after ends, and counts nothing', async () => {
    const { fake, test } = suite;
    const { room, sessionId, participantCalls } = await questionUnderWay(
      test,
      fake,
      (name) => [`${name} opens with the payment path.`, `${name} would cut the admin panel first.`, `${name} thinks the billing team owns it.`],
      'What would you cut first?',
    );
    const before = (await test.app.repositories.sessions.findById(sessionId))!;
    const reply = await test.say(room, 'And who owns the billing path?');
    expect(reply?.content).toMatch(/writing faster than the room can answer/);
    await test.settle();

    const stored = await test.app.repositories.messages.listForSession(sessionId);
    const folded = stored.find((message) => message.text === 'And who owns the billing path?')!;
    const answers = stored.filter((message) => message.speaker.kind === 'participant' && message.replyTo.includes(folded.id));
    expect(answers.map((message) => message.speaker.name).sort()).toEqual([...NAMES].sort());
    expect(answers.every((message) => message.text.includes('billing team owns it'))).toBe(true);
    expect(participantCalls()).toBe(9);
    // The folded message itself counted nothing: only the three answers to it did.
    const after = (await test.app.repositories.sessions.findById(sessionId))!;
    expect(after.messageCount - before.messageCount).toBe(6);
  });

  it('rides with the round that reads it, and starts no second one', async () => {
    const { fake, test } = suite;
    for (const name of NAMES) fake.script({ participant: name }, replies.text(`${name} opens.`), replies.text(`${name} answers both at once.`));
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    // Both stored before the round is seated: one round reads and answers both.
    await Promise.all([test.say(room, 'What would you cut first?'), test.say(room, 'And who owns billing?')]);
    await test.settle();
    expect(fake.chats.filter((chat) => chat.agent.role === 'participant')).toHaveLength(6);
  });
});
