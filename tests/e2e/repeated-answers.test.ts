/**
 * A participant stuck in a loop (as small and local models get, and any model once a discussion stalls) posts the
 * same answer round after round. Through the real app and SDK: its repeat is tried again with a cue, a second repeat
 * is withheld with the reason, and a round that adds nothing starts no other.
 */
import { describe, expect, it } from 'vitest';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { appOnFakeModels } from '../support/app-on-fake-models.ts';
import { proposeSession } from '../support/session-driver.ts';

const suite = appOnFakeModels({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '3' });

const LOOP = 'We should start with the payment path, because it carries the most risk and had the most incidents.';

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
      expect(said.some((message) => message.content.startsWith(`${name}'s answer was withheld: it repeated its own answer #`))).toBe(true);
    }
    const retried = fake.chats.filter(
      (chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok' && JSON.stringify(chat.body.messages).includes('You said this already in #'),
    );
    expect(retried).toHaveLength(1);
    // Nobody answered in that round: no other AI round starts (the loop guard would have allowed three).
    expect(fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok')).toHaveLength(3);
    const session = await test.app.repositories.sessions.findByRoom('memory', room);
    expect(session?.status).toBe('active');
  });
});
