import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession, waitFor } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
});
afterAll(async () => fake?.close());
beforeEach(async () => {
  fake.reset();
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '3' }));
});
afterEach(async () => test?.stop());

const participantMessages = (test: TestApp, room: string) => test.transport.room(room).filter((message) => message.speakerKind === 'participant');
const session = (test: TestApp, room: string) => test.app.repositories.sessions.findByRoom('memory', room);

describe('control of a running session', () => {
  it('!stop mid-turn aborts the hanging model call, keeps what was said, and wraps up', async () => {
    const room = await proposeSession(test, fake);
    fake.script({ participant: 'Claude' }, replies.hang());
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    await waitFor(
      async () =>
        (await test.app.repositories.messages.listForSession((await session(test, room))!.id)).filter((message) => message.speaker.kind === 'participant')
          .length === 2,
      'two answers while Claude hangs',
    );
    const reply = await test.command(room, 'stop');
    expect(reply.content).toMatch(/Stopped/);
    await test.settle();
    const stopped = await session(test, room);
    expect(stopped?.status).toBe('stopped');
    const names = participantMessages(test, room)
      .map((message) => message.speaker)
      .sort();
    expect(names).toEqual(['ChatGPT', 'Grok']);
    expect(test.transport.room(room).at(-1)?.content).toMatch(/this session is closed\*\* \(stopped by Alice\)/);
    expect(test.app.services.coordinator.busySessions()).toEqual([]);
  });

  it('!pause lets the answers in flight finish but starts no new round; !continue resumes', async () => {
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    const paused = await test.command(room, 'pause');
    expect(paused.content).toMatch(/Paused/);
    await test.settle();
    const whilePaused = participantMessages(test, room).length;
    expect(whilePaused).toBeLessThanOrEqual(3);
    expect((await session(test, room))?.status).toBe('paused');
    const note = await test.say(room, 'Hello, anyone?');
    expect(note?.content).toMatch(/paused/);
    await test.settle();
    expect(participantMessages(test, room).length).toBe(whilePaused);
    expect((await test.command(room, 'continue')).content).toMatch(/resumed/);
    await test.settle();
    expect(participantMessages(test, room).length).toBeGreaterThan(whilePaused);
  });

  it('!pause lets an answer still being written finish, though the owner looks at the session meanwhile', async () => {
    const room = await proposeSession(test, fake);
    fake.script({ participant: 'Claude' }, replies.text('Claude, slowly: start with the riskiest assumption.', { timing: { latencyMs: 300 } }));
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    const sessionId = (await session(test, room))!.id;
    const claude = async () => (await test.app.repositories.messages.listForSession(sessionId)).filter((message) => message.speaker.name === 'Claude');
    await waitFor(() => fake.chats.some((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Claude'), "Claude's model asked");
    expect((await test.command(room, 'pause')).content).toMatch(/Paused/);
    // The owner's pass (once a second in production) finds the session paused while Claude still writes.
    await test.app.services.ownership.tick();
    // On real time, not settle's moving clock: Claude's 300 ms are not to run into its deadline.
    await waitFor(async () => (await claude()).length > 0, "Claude's answer stored");
    await test.settle();
    expect((await claude()).map((message) => [message.text, Boolean(message.interrupted), message.deliveryStatus])).toEqual([
      ['Claude, slowly: start with the riskiest assumption.', false, 'delivered'],
    ]);
    expect((await session(test, room))?.status).toBe('paused');
  });

  it('a failing participant never blocks the others: one notice when it fails, one when it is benched', async () => {
    const room = await proposeSession(test, fake);
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 12 }, () => replies.httpError(500)));
    await test.command(room, 'approve');
    await test.settle();
    const answered = new Set(participantMessages(test, room).map((message) => message.speaker));
    expect(answered).toEqual(new Set(['Claude', 'ChatGPT']));
    const notices = test.transport.room(room).filter((message) => message.speaker === 'Brainstorm' && /Grok/.test(message.content));
    expect(notices.map((notice) => notice.content)).toEqual([
      'Grok could not answer this time (its model did not respond). The others carry on.',
      expect.stringMatching(/^Grok is benched for now/),
    ]);
  });

  it('a model that fails mid-answer leaves no half-written preview: what it showed is kept, marked interrupted', async () => {
    const room = await proposeSession(test, fake);
    const cutOff = replies.streamError('Provider returned error', 502, 'Half of an answer about rollout');
    fake.script({ participant: 'Grok' }, cutOff, cutOff);
    await test.command(room, 'approve');
    await test.settle();
    await test.say(room, 'Grok, what would you roll out first?');
    await test.settle();
    // Every preview became a message: none is left ending in ▍ as if the bot had posted half an answer.
    expect(test.transport.messages.filter((message) => message.roomId === room && message.preview).map((message) => message.content)).toEqual([]);
    const fromGrok = participantMessages(test, room).filter((message) => message.speaker === 'Grok' && message.content.includes('Half of an answer'));
    expect(fromGrok.map((message) => message.content)).toEqual([
      expect.stringMatching(/^Half of an answer about rollout\s+— \*\(interrupted\)\*/),
      expect.stringMatching(/^Half of an answer about rollout\s+— \*\(interrupted\)\*/),
    ]);
    const notices = test.transport.room(room).filter((message) => message.speaker === 'Brainstorm' && /Grok/.test(message.content));
    expect(notices.map((notice) => notice.content)).toEqual([
      'Grok stopped mid-answer (its model failed); what it wrote is kept, marked interrupted. The others carry on.',
    ]);
  });

  it('an answer that trips a guardrail is retried once, then withheld with a short note', async () => {
    const room = await proposeSession(test, fake);
    const impersonation = {
      ...replies.text('Claude: I fully agree with myself, and so does everyone.'),
      usage: { promptTokens: 3000, completionTokens: 50, costUsd: 0.2 },
    };
    fake.script({ participant: 'Grok' }, impersonation, impersonation);
    const before = await session(test, room);
    await test.command(room, 'approve');
    await test.settle();
    // Both withheld answers were paid for: the session counts them.
    expect(((await session(test, room))?.totalCostUsd ?? 0) - (before?.totalCostUsd ?? 0)).toBeGreaterThanOrEqual(0.4);
    const grokRequests = fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok');
    expect(grokRequests.length).toBeGreaterThanOrEqual(2);
    const note = test.transport.room(room).find((message) => message.speaker === 'Brainstorm' && /withheld/.test(message.content));
    expect(note?.content).toBe("Grok's answer was withheld: the answer spoke in the name of another participant.");
    expect(test.transport.room(room).some((message) => message.content.includes('I fully agree with myself'))).toBe(false);
  });

  it('a plan outside the admin bounds is shown adjusted and enforced', async () => {
    const room = await proposeSession(test, fake, { maxMessages: 99_999, maxCostUsd: 500, timeoutMinutes: 10_000 });
    const plan = test.transport.room(room).at(-1)!;
    expect(plan.content).toMatch(/1000 messages/);
    expect(plan.content).toMatch(/\$5\.00/);
    expect(plan.content).toMatch(/Adjusted to the admin limits/);
    await test.command(room, 'approve');
    await test.settle();
    const active = await session(test, room);
    expect(active?.plan?.parameters.maxMessages).toBe(1000);
    expect(active?.plan?.parameters.timeoutMinutes).toBe(60);
  });

  it("a person's comment on the plan revises it; the revised plan is approved", async () => {
    const room = await proposeSession(test, fake);
    fake.script(
      { role: 'planner' },
      replies.toolCall('start_session', { ...(await session(test, room))!.plan!, objectives: ['Decide on kill switches', 'Pick a vendor'] }),
    );
    const ack = await test.say(room, 'Please focus on kill switches instead.');
    expect(ack?.content).toMatch(/revising/);
    await test.settle();
    const revised = test.transport.room(room).at(-1)!;
    expect(revised.content).toMatch(/Revised plan/);
    expect(revised.content).toMatch(/kill switches/);
    const lastPlannerRequest = fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!;
    expect(JSON.stringify(lastPlannerRequest.body.messages)).toContain('Please focus on kill switches instead.');
    await test.command(room, 'approve');
    await test.settle();
    expect((await session(test, room))?.plan?.objectives).toEqual(['Decide on kill switches', 'Pick a vendor']);
  });

  it('a Planner that keeps asking instead of planning is stopped after a few attempts, with a notice', async () => {
    fake.script({ role: 'planner' }, ...Array.from({ length: 10 }, () => replies.ignoringToolChoice(replies.json({ questions: ['And what about this?'] }))));
    await test.say(null, 'A topic the Planner cannot settle');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    await test.say(room, 'Here is everything I know.');
    await test.settle();
    expect((await session(test, room))?.status).toBe('cancelled');
    expect(test.transport.room(room).at(-1)?.content).toMatch(/could not produce a plan after 3 attempts/);
    expect(fake.pending({ role: 'planner' })).toBeGreaterThanOrEqual(5);
  });

  it('cancels a session nobody approves within the planner timeout, with a notice', async () => {
    const room = await proposeSession(test, fake);
    await test.clock.advance(31 * 60_000);
    await test.settle();
    expect((await session(test, room))?.status).toBe('cancelled');
    expect(test.transport.room(room).at(-1)?.content).toMatch(/cancelled: no answer within 30 minutes/);
  });
});
