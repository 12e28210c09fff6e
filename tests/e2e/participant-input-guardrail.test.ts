/**
 * A secret that reached the store some other way than a person's screened message (an older version, an import)
 * never reaches a participant's model: the SDK input guardrail stops the turn, the room is told why, and the
 * fake model receives no participant request carrying it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

const KEY = `sk-or-v1-${'9f8e7d6c'.repeat(8)}`;
let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' }));
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

describe('participants’ input guardrail', () => {
  it('withholds every turn whose conversation carries a stored secret, and sends none of it to a model', async () => {
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
    await test.app.repositories.messages.insert(
      { sessionId: session!.id, speaker: { kind: 'human', name: 'Ana' }, role: 'user', text: `Old note: ${KEY}`, deliveryStatus: 'delivered' },
      test.clock.now(),
    );
    const before = fake.chats.length;
    await test.say(room, 'What do you all think of a CDN in front of the API?');
    await test.settle();
    const participantRequests = fake.chats.slice(before).filter((chat) => chat.agent.role === 'participant');
    expect(participantRequests.filter((chat) => JSON.stringify(chat.body.messages).includes(KEY))).toEqual([]);
    expect(test.transport.room(room).some((message) => /withheld: its input carried what looks like a secret/.test(message.content))).toBe(true);
  });
});
