import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;
let room: string;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' }));
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

describe('one person cannot spend a session alone', () => {
  it('a flood of 50 messages in a burst is stored whole, counted once, answered in at most two turns, with one gentle notice', async () => {
    const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
    const before = (await test.app.repositories.sessions.findById(session!.id))!.messageCount;
    const storedBefore = await storedCount();
    const answers = [];
    for (let index = 0; index < 50; index += 1) answers.push(await test.say(room, `Point ${index + 1} of my long list.`));
    const notices = answers.filter((answer) => answer?.content.includes('taking your next messages together'));
    expect(notices).toHaveLength(1);
    expect(await storedCount()).toBeGreaterThanOrEqual(storedBefore + 50);
    await test.settle();
    const after = (await test.app.repositories.sessions.findById(session!.id))!;
    expect(after.status).toBe('active');
    // The person's 50 messages count as one; the rest of the growth is what the models said in that one turn.
    const said = (await test.app.repositories.messages.listForSession(session!.id)).slice(storedBefore);
    expect(said.filter((message) => message.speaker.kind === 'human')).toHaveLength(50);
    const modelMessages = said.filter((message) => message.speaker.kind !== 'human' && message.speaker.kind !== 'system').length;
    expect(after.messageCount - before).toBeLessThanOrEqual(1 + modelMessages);
    // One counted message from the person, and at most two answers per participant: the turn the first message started,
    // and one more for the pieces stored after that turn had read the room (never one per message), so the end of
    // the burst is read and answered too, though this room answers people only.
    expect(after.messageCount - before).toBeLessThanOrEqual(7);
    const last = said.findLast((message) => message.speaker.kind === 'human')!;
    expect(said.some((message) => message.speaker.kind === 'participant' && message.replyTo.includes(last.id))).toBe(true);
  });
});
