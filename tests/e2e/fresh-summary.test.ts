import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal' });
});
afterAll(async () => fake?.close());
beforeEach(async () => {
  fake.reset();
  test = await startTestApp(
    fakeEnvironment(fake.url, {
      SESSION_PLANNER_MAX_QUESTIONS: '0',
      MAX_AI_ROUNDS_WITHOUT_HUMAN: '0',
      SCRIBE_UPDATE_INTERVAL: '60',
      TLDR_UPDATE_INTERVAL: '600',
    }),
  );
});
afterEach(async () => test?.stop());

const sessionIn = async (room: string) => (await test.app.repositories.sessions.findByRoom('memory', room))!;
const tldrOf = async (room: string) => test.app.repositories.documents.find((await sessionIn(room)).id, 'tldr');

describe('!summary', () => {
  it('makes a fresh summary when the stored one is older than the last messages', async () => {
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    await test.clock.advance(61_000);
    await test.settle();
    expect((await tldrOf(room))?.version).toBe(1);

    await test.say(room, 'New point: flags older than a quarter get removed.');
    await test.settle();
    const reply = await test.command(room, 'summary');
    expect(reply.content).toBe('Summary posted.');
    const fresh = await tldrOf(room);
    expect(fresh?.version).toBe(2);
    const record = await test.app.repositories.documents.find((await sessionIn(room)).id, 'record');
    expect(record?.content).toContain('older than a quarter');
    await test.settle();
    expect(
      test.transport
        .room(room)
        .filter((message) => message.speakerKind === 'tldr')
        .at(-1)?.content,
    ).toBe(fresh?.content);
  });

  it('serves the stored summary when nothing was said since', async () => {
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    await test.clock.advance(61_000);
    await test.settle();
    const tldrCalls = fake.chats.filter((chat) => chat.agent.role === 'tldr').length;
    await test.command(room, 'summary');
    expect((await tldrOf(room))?.version).toBe(1);
    expect(fake.chats.filter((chat) => chat.agent.role === 'tldr').length).toBe(tldrCalls);
  });
});

describe('!summary before the first record', () => {
  it('writes the first record and TLDR at once instead of saying there is none', async () => {
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    expect(await tldrOf(room)).toBeNull();
    const reply = await test.command(room, 'summary');
    expect(reply.content).toBe('Summary posted.');
    expect((await tldrOf(room))?.version).toBe(1);
  });
});
