/**
 * The changes to who waits for what (a second person answered while the room still answers the first, the
 * Moderator's check going on beside a person's round, a repeater sitting out the AI rounds) with a model that never
 * volunteers a tool call and says its answer again: every person is still replied to, and the session still closes,
 * with nothing left pending and the Moderator's closing last; so does a pause under way.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Author } from '../../src/core/domain.ts';
import { appOnClockedFakeModels } from '../support/app-on-fake-models.ts';

const bob: Author = { id: 'u-bob', name: 'Bob', isAdmin: false };
// Every model takes a second on the test's clock, so people speak while answers and checks are under way.
const suite = appOnClockedFakeModels(
  { SESSION_PLANNER_MAX_QUESTIONS: '0', MODERATOR_CHECK_INTERVAL: '3', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' },
  { fallback: 'literal', latencyMs: 1000 },
);

/** `work`, once it is done and the app has settled after it: the clock moves a second at a time meanwhile. */
async function settledWith<T>(work: Promise<T>): Promise<T> {
  const { clock, test } = suite;
  let done = false;
  void work.finally(() => (done = true));
  while (!done) {
    await clock.advance(1000);
    await test.settle();
  }
  await test.settle();
  return work;
}

/** A topic posted and its plan approved; the room. */
async function approvedRoom(): Promise<string> {
  const { test } = suite;
  await test.say(null, 'How should a small team adopt feature flags?');
  await test.settle();
  const room = test.transport.rooms.at(-1)!.roomId;
  // Approving waits on a model (the Moderator's opening), whose answer comes as the clock moves: settle moves it.
  expect((await settledWith(test.command(room, 'approve'))).content).toMatch(/Plan approved/);
  return room;
}

describe('two people in a room of models that never volunteer a tool call', () => {
  it('are both replied to while answers are under way, and the session still closes', async () => {
    const { fake, test } = suite;
    const room = await approvedRoom();
    const asked = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;

    for (let exchange = 0; exchange < 2; exchange += 1) {
      const before = asked();
      await test.say(room, `What would you try first? (${exchange})`);
      // Bob speaks while the answers to Alice are still being written.
      await vi.waitFor(() => expect(asked()).toBeGreaterThan(before), { timeout: 5_000 });
      await test.say(room, `And what would you measure? (${exchange})`, bob);
      await test.settle();
    }
    expect((await settledWith(test.command(room, 'stop'))).content).toMatch(/Stopped/);

    const session = (await test.app.repositories.sessions.findByRoom('memory', room))!;
    expect(session.status).toBe('stopped');
    const stored = await test.app.repositories.messages.listForSession(session.id);
    expect(stored.filter((message) => message.deliveryStatus === 'pending')).toEqual([]);
    const people = stored.filter((message) => message.speaker.kind === 'human' && /\(\d\)$/.test(message.text));
    expect(people).toHaveLength(4);
    // Each got an answer, or the room's notice that the models only repeated themselves, replying to them.
    for (const person of people) expect(stored.some((message) => message.replyTo.includes(person.id))).toBe(true);
    expect(test.transport.room(room).at(-1)?.speaker).toBe('Moderator');
    expect(test.app.services.coordinator.busySessions()).toEqual([]);
  });

  it('a pause lets the answers being written finish and starts nothing; !continue answers who spoke meanwhile; the session still closes', async () => {
    const { fake, test } = suite;
    const room = await approvedRoom();
    const asked = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
    const before = asked();
    expect(await test.say(room, 'What would you try first?')).toBeNull();
    await vi.waitFor(() => expect(asked()).toBeGreaterThan(before), { timeout: 5_000 });
    expect((await test.command(room, 'pause')).content).toMatch(/Paused/);
    // The owner's pass finds the session paused while the answers are still being written (their models take a second).
    await test.app.services.ownership.tick();
    expect((await test.say(room, 'And what would you measure?', bob))?.content).toMatch(/paused/);
    await settledWith(Promise.resolve());
    const session = (await test.app.repositories.sessions.findByRoom('memory', room))!;
    const askedWhilePaused = asked();
    const stored = await test.app.repositories.messages.listForSession(session.id);
    const alices = stored.find((message) => message.text === 'What would you try first?')!;
    // Every participant asked for Alice's round answered her in full.
    const toAlice = stored.filter((message) => message.speaker.kind === 'participant' && message.replyTo.includes(alices.id));
    expect(toAlice).toHaveLength(askedWhilePaused - before);
    expect(toAlice.filter((message) => message.interrupted)).toEqual([]);
    await settledWith(Promise.resolve());
    expect(asked()).toBe(askedWhilePaused);

    expect((await test.command(room, 'continue')).content).toMatch(/resumed/);
    await settledWith(Promise.resolve());
    const resumed = await test.app.repositories.messages.listForSession(session.id);
    const bobs = resumed.find((message) => message.text === 'And what would you measure?')!;
    expect(resumed.some((message) => message.replyTo.includes(bobs.id))).toBe(true);
    expect((await settledWith(test.command(room, 'stop'))).content).toMatch(/Stopped/);
    const after = await test.app.repositories.messages.listForSession(session.id);
    expect(after.filter((message) => message.deliveryStatus === 'pending')).toEqual([]);
    expect(test.transport.room(room).at(-1)?.speaker).toBe('Moderator');
  });
});
