import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;
let room: string;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url));
  room = await proposeSession(test, fake, { maxMessages: 40 });
  await test.command(room, 'approve');
  await test.settle();
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

async function storedCount(): Promise<number> {
  const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
  return (await test.app.repositories.messages.listForSession(session!.id)).length;
}

describe('bad input gets a clear reply and changes nothing', () => {
  it('a message of only zero-width characters is refused, never stored or sent to a model', async () => {
    const before = await storedCount();
    const chats = fake.chats.length;
    const answer = await test.say(room, '\u200b\u2060\u200d\ufeff');
    await test.settle();
    expect(answer?.content).toMatch(/no visible text/);
    expect(answer?.private).toBe(true);
    expect(await storedCount()).toBe(before);
    expect(fake.chats.length).toBe(chats);
  });

  it('a topic of only invisible characters opens no session', async () => {
    const rooms = test.transport.rooms.length;
    const answer = await test.say(null, '\u200b \u200c');
    expect(answer?.content).toMatch(/no visible text/);
    expect(test.transport.rooms.length).toBe(rooms);
  });
});
