/**
 * Two people in one room: the second speaks while the room still answers the first. A participant that has answered
 * the first already answers the second at once; those still writing finish the first's answer, then answer the
 * second. Nobody waits for the slowest model of someone else's round, and nobody is left out of a reply.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Author } from '../../src/core/domain.ts';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { appOnClockedFakeModels } from '../support/app-on-fake-models.ts';

const LATENCIES = { Claude: 400, ChatGPT: 1500, Grok: 3000 } as const;
const bob: Author = { id: 'u-bob', name: 'Bob', isAdmin: false };

// The fake's delays run on the app's clock: a model's answer comes only when the test moves time.
const suite = appOnClockedFakeModels({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '0', SESSION_PLANNER_MAX_QUESTIONS: '0' });

describe('a second person who speaks while the room answers the first', () => {
  it('is answered at once by whoever is free, and by the others once they have answered the first', async () => {
    const { clock, fake, test } = suite;
    await test.say(null, 'How should we cache our public API responses?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    await test.command(room, 'approve');
    await test.settle();
    for (const [name, latencyMs] of Object.entries(LATENCIES)) {
      fake.script({ participant: name }, ...[1, 2].map((answer) => replies.text(`${name} answer ${answer}.`, { timing: { latencyMs } })));
    }
    const asked = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
    const before = asked();

    await test.say(room, 'Which layer would you cache first?');
    await vi.waitFor(() => expect(asked()).toBe(before + 3), { timeout: 5_000 });
    // Claude has answered Alice; ChatGPT and Grok are still writing.
    await clock.advance(500);
    await vi.waitFor(async () => expect((await stored()).map((message) => message.text)).toContain('Claude answer 1.'), { timeout: 5_000 });
    await test.say(room, 'And how long should entries live?', bob);
    // Claude is asked for Bob's answer now, with no more time passing: not after Grok's 3 s.
    await vi.waitFor(() => expect(asked()).toBe(before + 4), { timeout: 5_000 });
    expect(fake.chats.at(-1)?.agent.name).toBe('Claude');

    await test.settle();
    const messages = await stored();
    const alice = messages.find((message) => message.text === 'Which layer would you cache first?')!;
    const bobs = messages.find((message) => message.text === 'And how long should entries live?')!;
    for (const name of Object.keys(LATENCIES)) {
      const answers = messages.filter((message) => message.speaker.name === name && message.text.startsWith(`${name} answer`));
      // Its first answer replies to Alice (and what the others said since), its second to Bob.
      expect(answers.map((message) => [message.replyTo.includes(alice.id), message.replyTo.includes(bobs.id)])).toEqual([
        [true, false],
        [false, true],
      ]);
    }
  });

  async function stored() {
    const { test } = suite;
    const session = await test.app.repositories.sessions.findByRoom('memory', test.transport.rooms.at(-1)!.roomId);
    return test.app.repositories.messages.listForSession(session!.id);
  }
});
