import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { admin, fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal' });
});
afterAll(async () => fake?.close());
beforeEach(async () => {
  fake.reset();
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', MODERATOR_CHECK_INTERVAL: '3' }));
});
afterEach(async () => test?.stop());

const minutes = (count: number) => count * 60_000;
const sessionIn = async (room: string) => (await test.app.repositories.sessions.findByRoom('memory', room))!;
const limitsOf = async (room: string) => test.app.services.limits.report(await sessionIn(room));
const moderatorCalls = () => fake.chats.filter((chat) => chat.agent.role === 'moderator').length;

async function activeSession(timeoutMinutes: number): Promise<string> {
  const room = await proposeSession(test, fake, { timeoutMinutes });
  await test.command(room, 'approve');
  await test.settle();
  return room;
}

describe('the session clock', () => {
  it('stops while paused: a paused session is not closed by its timeout, and the timeout moves by the paused time', async () => {
    const room = await activeSession(10);
    await test.clock.advance(minutes(4));
    await test.command(room, 'pause');
    await test.clock.advance(minutes(30));
    await test.settle();
    expect((await sessionIn(room)).status).toBe('paused');
    // Four minutes ran before the pause (plus the few seconds the rounds took); the thirty paused ones did not count.
    expect((await limitsOf(room)).minutes.used).toBeGreaterThanOrEqual(4);
    expect((await limitsOf(room)).minutes.used).toBeLessThan(4.5);

    await test.command(room, 'continue');
    await test.settle();
    await test.clock.advance(minutes(5));
    await test.settle();
    expect((await sessionIn(room)).status).toBe('active');

    await test.clock.advance(minutes(1) + 1000);
    await test.settle();
    const ended = await sessionIn(room);
    expect(ended.status).toBe('completed');
    expect(ended.endReason).toBe('the time limit was reached');
    expect(test.transport.room(room).some((message) => /closed.*time limit/i.test(message.content))).toBe(true);
  });

  it("!reset resets the elapsed time, the usage counters and the Moderator's check counter", async () => {
    const room = await activeSession(10);
    await test.say(room, 'Let us compare kill switches and gradual rollouts.');
    await test.settle();
    await test.clock.advance(minutes(8));
    const before = await sessionIn(room);
    expect(before.messageCount).toBeGreaterThan(3);
    expect(before.moderationState.lastCheckAtMessage).toBeGreaterThan(0);

    const reply = await test.command(room, 'reset', '', admin);
    expect(reply.content).toMatch(/elapsed time/);
    const after = await sessionIn(room);
    expect(after.messageCount).toBe(0);
    expect(after.moderationState.lastCheckAtMessage).toBe(0);
    expect((await limitsOf(room)).minutes.used).toBe(0);

    // The old deadline (10 minutes after the start) passes without closing the session.
    await test.clock.advance(minutes(5));
    await test.settle();
    expect((await sessionIn(room)).status).toBe('active');

    // The Moderator checks again within its interval after the reset.
    const calls = moderatorCalls();
    await test.say(room, 'What about the risks of stale flags?');
    await test.settle();
    expect(moderatorCalls()).toBeGreaterThan(calls);
  });
});
