import { getGlobalTraceProvider } from '@openai/agents';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatedReply } from '../../../src/simulator/index.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { scriptedPlan } from '../../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../../support/test-app.ts';

/**
 * Planner conformance: through the real SDK and `openai` client against the fake OpenRouter, the Planner
 * reaches a plan (or posts a clear notice) whatever its model answers. The first reply is scripted to
 * misbehave; after it the literal model answers, which never volunteers a tool call (so only a forced
 * `tool_choice` gets a plan out of it).
 */
let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal', honourToolChoice: false });
});
afterAll(async () => fake?.close());
beforeEach(async () => {
  fake.reset();
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0' }));
});
afterEach(async () => test?.stop());

const plan = JSON.stringify(scriptedPlan());
const twoCalls: SimulatedReply = {
  kind: 'tool_calls',
  calls: [
    { name: 'start_session', arguments: plan, id: 'call-a' },
    { name: 'start_session', arguments: JSON.stringify(scriptedPlan({ maxMessages: 20 })), id: 'call-b' },
  ],
};
const planAndHandoff: SimulatedReply = {
  kind: 'tool_calls',
  calls: [
    { name: 'start_session', arguments: plan, id: 'call-a' },
    { name: 'transfer_to_Moderator', arguments: '{}', id: 'call-b' },
  ],
};

/** Each row: what the Planner's model first answers. */
const ROWS: [string, SimulatedReply[]][] = [
  ['ignores the instruction to call a tool (questions instead)', [replies.json({ questions: ['What do you mean?'] })]],
  ['answers an empty list of questions', [replies.json({ questions: [] })]],
  ['sends a tool call with arguments ""', [replies.toolCall('start_session', '')]],
  ['sends invalid arguments', [replies.toolCall('start_session', '{"expandedTopic": 42, "objectives": "none"')]],
  ['calls an unknown tool', [replies.toolCall('launch_rocket', { now: true })]],
  ['sends two tool calls at once', [twoCalls]],
  ['sends the plan and a handoff at once', [planAndHandoff]],
  ['hands off instead of calling the tool', [replies.toolCall('transfer_to_Moderator', {})]],
  ['wraps JSON in code fences', [replies.json({ questions: ['Fenced?'] }, { fenced: true })]],
  ['follows JSON with prose', [replies.text('{"questions": []}\n\nLet me know if you need anything else!')]],
  ['refuses in plain text', [replies.text("I'm sorry, but I can't help with that request.")]],
  ['sends empty content', [replies.text('')]],
  ['misbehaves three times in a row', [replies.text(''), replies.text('No.'), replies.json({ questions: [] })]],
];

async function plannerSpans(sessionId: string) {
  await getGlobalTraceProvider().forceFlush();
  const traces = await test.app.repositories.traces.listTraces({ sessionId, limit: 100 });
  return (await Promise.all(traces.map((trace) => test.app.repositories.traces.getTrace(trace.id)))).flatMap((detail) => detail?.spans ?? []);
}

describe('the Planner reaches a plan whatever its model answers', () => {
  for (const [row, scripted] of ROWS) {
    it(`when the model ${row}`, async () => {
      fake.script({ role: 'planner' }, ...scripted);
      await test.say(null, 'How should a small team adopt feature flags?');
      await test.settle();
      const room = test.transport.rooms.at(-1)!.roomId;
      const session = (await test.app.repositories.sessions.findByRoom('memory', room))!;
      const transcript = test.transport.room(room);
      const planned = session.status === 'awaiting_approval' && transcript.some((message) => /Proposed plan/.test(message.content));
      const noticed = session.status === 'cancelled' && /could not produce a plan/.test(transcript.at(-1)?.content ?? '');
      expect(planned || noticed, `status ${session.status}; room: ${transcript.map((message) => message.content).join(' | ')}`).toBe(true);
      expect(planned).toBe(true);
      expect(transcript.filter((message) => /Proposed plan/.test(message.content))).toHaveLength(1);
      expect(transcript.some((message) => message.speaker === 'Moderator')).toBe(false);
      const spans = await plannerSpans(session.id);
      expect(spans.some((span) => span.type === 'agent' && span.name === 'Planner')).toBe(true);
      expect(spans.some((span) => span.type === 'handoff')).toBe(false);

      expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
      expect((await test.app.repositories.sessions.findById(session.id))?.status).toBe('active');
    });
  }

  it('posts a clear notice, and the trace shows why, when the model never produces a plan', async () => {
    fake.script({ role: 'planner' }, ...Array.from({ length: 20 }, () => replies.text("I'm sorry, but I can't help with that request.")));
    await test.say(null, 'A topic the model refuses');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    const session = (await test.app.repositories.sessions.findByRoom('memory', room))!;
    expect(session.status).toBe('cancelled');
    expect(test.transport.room(room).at(-1)?.content).toMatch(/could not produce a plan after 3 attempts/);
    const spans = await plannerSpans(session.id);
    expect(spans.filter((span) => span.type === 'agent' && span.name === 'Planner').length).toBeGreaterThanOrEqual(3);
    expect(spans.some((span) => span.error !== null)).toBe(true);
  });
});

async function proposedRoom(): Promise<{ room: string; sessionId: string }> {
  await test.say(null, 'How should a small team adopt feature flags?');
  await test.settle();
  const room = test.transport.rooms.at(-1)!.roomId;
  const session = (await test.app.repositories.sessions.findByRoom('memory', room))!;
  expect(session.status).toBe('awaiting_approval');
  return { room, sessionId: session.id };
}

describe('after a comment, the Planner revises the plan whatever its model answers', () => {
  for (const [row, scripted] of ROWS) {
    it(`when the model ${row}`, async () => {
      const { room, sessionId } = await proposedRoom();
      fake.script({ role: 'planner' }, ...scripted);
      expect((await test.say(room, 'Please focus on kill switches instead.'))?.content).toMatch(/revising/);
      await test.settle();
      const transcript = test.transport.room(room);
      expect(transcript.at(-1)?.content, transcript.map((message) => message.content).join(' | ')).toMatch(/Revised plan \(v2\)/);
      expect(transcript.some((message) => message.speaker === 'Moderator')).toBe(false);
      expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
      expect((await test.app.repositories.sessions.findById(sessionId))?.status).toBe('active');
    });
  }

  it('keeps the old plan approvable, with a notice, when no revision comes', async () => {
    const { room, sessionId } = await proposedRoom();
    fake.script({ role: 'planner' }, ...Array.from({ length: 20 }, () => replies.text("I'm sorry, but I can't help with that request.")));
    await test.say(room, 'Please focus on kill switches instead.');
    await test.settle();
    expect(test.transport.room(room).at(-1)?.content).toMatch(/could not revise the plan this time .*The plan above still stands/);
    expect((await test.app.repositories.sessions.findById(sessionId))?.status).toBe('awaiting_approval');
    fake.reset();
    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
    expect((await test.app.repositories.sessions.findById(sessionId))?.status).toBe('active');
  });
});

const APPROVAL_ROWS: [string, SimulatedReply[]][] = [
  ['answers questions instead of handing off', [replies.json({ questions: ['Anything else?'] })]],
  ['refuses in plain text', [replies.text("I'm sorry, but I can't help with that request.")]],
  ['sends empty content', [replies.text('')]],
  ['calls an unknown tool', [replies.toolCall('launch_rocket', {})]],
  ['hands off with arguments ""', [replies.toolCall('transfer_to_Moderator', '')]],
  ['calls start_session again', [replies.toolCall('start_session', plan)]],
  ['fails with an HTTP error', [replies.httpError(400, 'bad request')]],
];

describe('after approval, the discussion opens whatever the model answers', () => {
  for (const [row, scripted] of APPROVAL_ROWS) {
    it(`when the model ${row}`, async () => {
      const { room, sessionId } = await proposedRoom();
      fake.script({ role: 'planner' }, ...scripted);
      expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
      expect((await test.app.repositories.sessions.findById(sessionId))?.status).toBe('active');
      await test.settle();
      expect(test.transport.room(room).filter((message) => message.speaker === 'Moderator').length).toBeGreaterThanOrEqual(1);
    });
  }
});
