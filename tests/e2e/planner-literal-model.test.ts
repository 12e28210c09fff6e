import { getGlobalTraceProvider } from '@openai/agents';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';
import { functionTools } from '../../src/simulator/chat-types.ts';

/**
 * The Planner with a model that never volunteers a tool call (it answers structured output by its schema and
 * calls a tool only when `tool_choice` forces one): every decision that must happen is forced, so sessions
 * still reach an approved plan.
 */
let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal' });
});
afterAll(async () => fake?.close());
beforeEach(() => fake.reset());
afterEach(async () => test?.stop());

const sessionOf = (room: string) => test.app.repositories.sessions.findByRoom('memory', room);
const lastMessage = (room: string) => test.transport.room(room).at(-1);

async function start(extra: Record<string, string> = {}): Promise<string> {
  test = await startTestApp(fakeEnvironment(fake.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', ...extra }));
  await test.say(null, 'How should a small team adopt feature flags?');
  await test.settle();
  return test.transport.rooms.at(-1)!.roomId;
}

describe('the Planner with a model that never volunteers a tool call', () => {
  it('asks its questions, then plans once they are answered, and the approved plan opens the discussion', async () => {
    const room = await start();
    expect(lastMessage(room)?.content).toMatch(/a few questions/);
    await test.say(room, 'Five engineers; a bad deploy took us down last month.');
    await test.settle();
    expect(lastMessage(room)?.content).toMatch(/Proposed plan/);
    expect((await sessionOf(room))?.status).toBe('awaiting_approval');
    const planRequest = fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!;
    expect(planRequest.body.tool_choice).toEqual({ type: 'function', function: { name: 'start_session' } });

    const approval = await test.command(room, 'approve');
    expect(approval.content).toMatch(/Plan approved/);
    expect((await sessionOf(room))?.status).toBe('active');
    await test.settle();
    expect(test.transport.room(room).some((message) => message.speaker === 'Moderator')).toBe(true);
    // The opening came through the SDK handoff, forced once the plan was approved.
    await getGlobalTraceProvider().forceFlush();
    const traces = await test.app.repositories.traces.listTraces({ sessionId: (await sessionOf(room))!.id, limit: 100 });
    const spans = (await Promise.all(traces.map((trace) => test.app.repositories.traces.getTrace(trace.id)))).flatMap((detail) => detail?.spans ?? []);
    expect(spans.filter((span) => span.type === 'handoff').map((span) => `${String(span.data.from_agent)}->${String(span.data.to_agent)}`)).toContain(
      'Planner->Moderator',
    );
  });

  it('plans at once when questions are turned off (SESSION_PLANNER_MAX_QUESTIONS=0)', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    expect(lastMessage(room)?.content).toMatch(/Proposed plan/);
    const requests = fake.chats.filter((chat) => chat.agent.role === 'planner');
    expect(requests).toHaveLength(1);
  });

  it('never offers the handoff to the Moderator before the plan is approved', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    expect((await sessionOf(room))?.status).toBe('awaiting_approval');
    const offered = fake.chats.filter((chat) => chat.agent.role === 'planner').flatMap((chat) => functionTools(chat.body).map((tool) => tool.function.name));
    expect(offered).toContain('start_session');
    expect(offered).not.toContain('transfer_to_Moderator');
  });

  it('revises the plan after a comment, and the revised plan is approved', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    const ack = await test.say(room, 'Please focus on kill switches instead.');
    expect(ack?.content).toMatch(/revising/);
    await test.settle();
    expect(lastMessage(room)?.content).toMatch(/Revised plan \(v2\)/);
    expect(test.transport.room(room).some((message) => message.speaker === 'Moderator')).toBe(false);
    const approval = await test.command(room, 'approve');
    expect(approval.content).toMatch(/Plan approved/);
    expect((await sessionOf(room))?.status).toBe('active');
  });

  it('a comment naming a limit sets it whatever the model revises, and "looks good" approves: the discussion opens', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    await test.say(room, 'Keep it to 12 messages max.');
    await test.settle();
    expect(lastMessage(room)?.content).toMatch(/Revised plan \(v2\)[\s\S]*\*\*Limits:\*\* 12 messages/);
    const approval = await test.say(room, 'Looks good, go ahead');
    expect(approval?.content).toMatch(/^Taken as `!approve`: Plan approved/);
    await test.settle();
    const session = await sessionOf(room);
    expect(session?.status).toBe('active');
    expect(session?.plan?.parameters.maxMessages).toBe(12);
    expect(test.transport.room(room).some((message) => message.speaker === 'Moderator')).toBe(true);
  });

  it("limits too small for a discussion (the model's 1 for every number) are raised to the defaults with a note, and the discussion runs", async () => {
    const room = await start({
      SESSION_PLANNER_MAX_QUESTIONS: '0',
      MAX_MESSAGES_PER_CONVERSATION: '40',
      MAX_TOKENS_PER_CONVERSATION: '200000',
      CONVERSATION_TIMEOUT_MINUTES: '30',
    });
    const planRequest = fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!;
    expect(JSON.stringify(planRequest.body)).toMatch(/start_session/);
    const shown = lastMessage(room)?.content ?? '';
    expect(shown).toMatch(/\*\*Limits:\*\* 40 messages · 200,000 tokens · \$1\.00 · 30 min/);
    expect(shown).toMatch(/Raised to leave room for a discussion: max messages 1 → 40, max tokens 1 → 200000, timeout minutes 1 → 30\./);
    await test.command(room, 'approve');
    await test.settle();
    const session = await sessionOf(room);
    expect(session?.status).toBe('active');
    expect(session?.plan?.parameters).toMatchObject({ maxMessages: 40, maxTokens: 200_000, timeoutMinutes: 30 });
    expect(test.transport.room(room).filter((message) => ['Claude', 'ChatGPT', 'Grok'].includes(message.speaker ?? '')).length).toBeGreaterThanOrEqual(3);
  });

  it("a person's word on a small limit stands: it is not raised", async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_MESSAGES_PER_CONVERSATION: '40' });
    await test.say(room, 'Keep it to 4 messages max.');
    await test.settle();
    const revised = lastMessage(room)?.content ?? '';
    expect(revised).toMatch(/Revised plan \(v2\)[\s\S]*\*\*Limits:\*\* 4 messages/);
    expect(revised).toMatch(/Raised to leave room for a discussion: max tokens/);
    expect(revised).not.toMatch(/max messages 1 →/);
    await test.command(room, 'approve');
    expect((await sessionOf(room))?.plan?.parameters.maxMessages).toBe(4);
  });

  it('!approve with no stored run to resume says so, re-plans, and never claims the plan was approved', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    const session = (await sessionOf(room))!;
    const stored = await test.app.repositories.runStates.findWaiting(session.id, 'planner_approval');
    await test.app.repositories.runStates.resolve(stored!.id, 'cancelled', test.clock.now());

    const reply = await test.command(room, 'approve');
    expect(reply.content).not.toMatch(/approved —/i);
    expect(reply.content).toMatch(/proposing the plan again/i);
    await test.settle();
    expect((await sessionOf(room))?.status).toBe('awaiting_approval');
    expect(lastMessage(room)?.content).toMatch(/plan/i);
    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
    expect((await sessionOf(room))?.status).toBe('active');
  });

  it('a Moderator opening that fails still opens the approved discussion', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    fake.script({ role: 'moderator' }, replies.httpError(400, 'bad request'));
    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
    expect((await sessionOf(room))?.status).toBe('active');
    await test.settle();
    expect(test.transport.room(room).find((message) => message.speaker === 'Moderator')?.content).toMatch(/^Welcome! The plan is approved/);
  });

  it('!approve on a stored run that cannot be restored re-plans instead of failing', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
    const session = (await sessionOf(room))!;
    await test.app.repositories.runStates.save(session.id, 'planner_approval', '{"not":"a run state"}', test.clock.now());
    expect((await test.command(room, 'approve')).content).toMatch(/proposing the plan again/i);
    await test.settle();
    expect((await sessionOf(room))?.status).toBe('awaiting_approval');
    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
  });

  it('auto-start approves the forced plan and opens the discussion on its own', async () => {
    const room = await start({ SESSION_PLANNER_MAX_QUESTIONS: '0', SESSION_PLANNER_AUTO_START: 'true' });
    const session = (await sessionOf(room))!;
    expect(['active', 'completed']).toContain(session.status);
    expect(session.startedAt).not.toBeNull();
    expect(test.transport.room(room).some((message) => message.speaker === 'Moderator')).toBe(true);
  });
});
