import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession, waitFor } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter | undefined;
let test: TestApp | undefined;

afterEach(async () => {
  await test?.stop();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

/** An app and a fake OpenRouter on one manual clock: model latencies and deadlines move only when the test says so. */
async function start(extra: Record<string, string> = {}): Promise<{ test: TestApp; fake: FakeOpenRouter; clock: ManualClock }> {
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  fake = await startFakeOpenRouter({ clock });
  test = await startTestApp(
    fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '2', MAX_AI_RESPONSES_PER_TURN: '3', ...extra }),
    {
      clock,
    },
  );
  return { test, fake, clock };
}

const sessionOf = async (app: TestApp, room: string) => (await app.app.repositories.sessions.findByRoom('memory', room))!;
const stored = async (app: TestApp, room: string) => app.app.repositories.messages.listForSession((await sessionOf(app, room)).id);
const slow = (text: string, latencyMs: number) => replies.text(text, { timing: { latencyMs } });
const requestsOf = (openRouter: FakeOpenRouter, name: string) =>
  openRouter.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === name).length;

describe('turn-taking that never stalls', () => {
  it("a person who speaks during an AI round is answered at once: the round's answers not yet visible yield", async () => {
    const { test, fake, clock } = await start();
    const room = await proposeSession(test, fake);
    // The opening answers the topic at once; the AI round that follows has models at 400, 1500 and 3000 ms.
    for (const [name, latency] of [
      ['Claude', 400],
      ['ChatGPT', 1500],
      ['Grok', 3000],
    ] as const) {
      fake.script(
        { participant: name },
        replies.text(`${name} opens.`),
        slow(`${name} in the AI round.`, latency),
        slow(`${name} answers the person.`, latency),
      );
    }
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    await waitFor(() => requestsOf(fake, 'Grok') === 2 && requestsOf(fake, 'Claude') === 2 && requestsOf(fake, 'ChatGPT') === 2, 'the AI round in flight');
    const started = clock.now().getTime();
    await clock.advance(400);
    await waitFor(async () => (await stored(test, room)).some((message) => message.text === 'Claude in the AI round.'), "Claude's AI-round answer");
    await clock.advance(300);
    await test.say(room, 'Quick question: what is the cheapest first step?');
    await waitFor(() => requestsOf(fake, 'Claude') === 3, 'Claude asked to answer the person while the round is still in flight');
    await clock.advance(400);
    await waitFor(async () => (await stored(test, room)).some((message) => message.text === 'Claude answers the person.'), 'the first answer to the person');
    // The person's first answer came at 1100 ms of model time, before the round's slowest model (3000 ms) was due.
    expect(clock.now().getTime() - started).toBeLessThan(1500);
    await test.settle();
    const texts = (await stored(test, room)).map((message) => message.text);
    expect(texts).not.toContain('ChatGPT in the AI round.');
    expect(texts).not.toContain('Grok in the AI round.');
    expect(texts).toEqual(expect.arrayContaining(['ChatGPT answers the person.', 'Grok answers the person.']));
  });

  it('a hung model is dropped at its own deadline with one short notice; the others carry on', async () => {
    const { test, fake, clock } = await start({ PARTICIPANT_FIRST_TOKEN_TIMEOUT_SECONDS: '20', PARTICIPANT_ANSWER_TIMEOUT_SECONDS: '60' });
    const room = await proposeSession(test, fake);
    fake.script({ participant: 'Claude' }, replies.hang(), replies.hang());
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    await waitFor(
      async () => (await stored(test, room)).filter((message) => message.speaker.kind === 'participant').length === 2,
      'the two answers while Claude hangs',
    );
    await clock.advance(20_000);
    await waitFor(() => test.transport.room(room).some((message) => message.content === 'Claude is slow; going on without it.'), 'the slow notice');
    // The next round goes on at once; Claude hangs there again and misses its deadline again, without a second notice.
    await waitFor(() => requestsOf(fake, 'Claude') === 2, 'the next round asking Claude again');
    await clock.advance(20_000);
    await test.settle();
    const session = await sessionOf(test, room);
    const messages = await stored(test, room);
    expect(messages.filter((message) => message.text === 'Claude is slow; going on without it.')).toHaveLength(1);
    // The next rounds went on (Claude hung once more, then answered again).
    expect(messages.filter((message) => message.speaker.kind === 'participant').length).toBeGreaterThan(2);
    expect(session.status).toBe('active');
    expect(test.app.services.coordinator.busySessions()).toEqual([]);
  });

  it('the message limit is never overshot: a round takes only the seats left', async () => {
    // The admin's bound, as a Planner's limit below a discussion's least would be raised (viable-limits.ts).
    const { test, fake } = await start({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '5', MAX_MESSAGES_PER_CONVERSATION: '5' });
    const room = await proposeSession(test, fake, { maxMessages: 5 });
    await test.command(room, 'approve');
    await test.settle();
    const session = await sessionOf(test, room);
    expect(session.status).toBe('completed');
    expect(session.messageCount).toBe(5);
    const report = await test.app.services.limits.report(session);
    expect(report.messages).toEqual({ used: 5, limit: 5 });
  });
});
