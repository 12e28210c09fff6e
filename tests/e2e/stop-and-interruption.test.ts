import { getGlobalTraceProvider } from '@openai/agents';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedVerdict } from '../support/scripted-moderation.ts';
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

/** An app and a fake OpenRouter on one manual clock, so model latencies move only when the test says so. */
async function start(
  extra: Record<string, string> = {},
  fakeOptions: { tokensPerSecond?: number } = {},
): Promise<{ test: TestApp; fake: FakeOpenRouter; clock: ManualClock }> {
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  fake = await startFakeOpenRouter({ clock, ...fakeOptions });
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '3', ...extra }), { clock });
  return { test, fake, clock };
}

const sessionOf = async (app: TestApp, room: string) => (await app.app.repositories.sessions.findByRoom('memory', room))!;
const stored = async (app: TestApp, room: string) => app.app.repositories.messages.listForSession((await sessionOf(app, room)).id);

const verdict = (overrides: Record<string, unknown>) => scriptedVerdict(overrides);

describe('stop means stop', () => {
  it('after !stop the Moderator check in flight posts nothing: only the closing follows', async () => {
    const { test, fake } = await start({ MODERATOR_CHECK_INTERVAL: '3', MAX_AI_RESPONSES_PER_TURN: '3' });
    const room = await proposeSession(test, fake);
    fake.script({ role: 'moderator' }, verdict({ message: 'Welcome! Who starts?' }), {
      ...verdict({ action: 'redirect', drifting: true, message: 'Let us bring it back to the objectives, please.' }),
      timing: { latencyMs: 10_000 },
    });
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    await waitFor(() => fake.chats.filter((chat) => chat.agent.role === 'moderator').length >= 2, 'the Moderator check in flight');
    const before = (await stored(test, room)).length;
    expect((await test.command(room, 'stop')).content).toMatch(/Stopped/);
    await test.settle();
    const after = (await stored(test, room)).slice(before);
    expect(after.some((message) => message.text.includes('bring it back'))).toBe(false);
    expect(after.filter((message) => message.speaker.kind !== 'human').map((message) => message.speaker.kind)).toEqual(['moderator']);
    expect(after.at(-1)?.text).toMatch(/this session is closed/);
  });

  it('an answer cut by !stop carries an interrupted mark in the room, the record and its trace', async () => {
    const { test, fake, clock } = await start({}, { tokensPerSecond: 20 });
    const room = await proposeSession(test, fake);
    const long = Array.from({ length: 40 }, (_, index) => `point${index}`).join(' ');
    fake.script({ participant: 'Claude' }, replies.text(`Claude opens: ${long}`));
    await test.command(room, 'approve');
    await test.app.worker.runDue();
    // Let Claude stream part of its answer (the others finish), then stop.
    for (
      let step = 0;
      step < 40 && !test.transport.messages.some((message) => message.preview && message.speaker === 'Claude' && message.content.includes('point'));
      step += 1
    ) {
      await clock.advance(100);
    }
    const preview = test.transport.messages.find((message) => message.preview && message.speaker === 'Claude');
    expect(preview?.content).toMatch(/point/);
    const warn = vi.spyOn(console, 'warn');
    await test.command(room, 'stop');
    await test.settle();
    // The unfinished run's output is never read (the SDK warns when it is).
    expect(warn.mock.calls.flat().join(' ')).not.toContain('Accessed finalOutput');
    warn.mockRestore();
    const claude = (await stored(test, room)).filter((message) => message.speaker.name === 'Claude');
    expect(claude).toHaveLength(1);
    expect(claude[0]?.text).toMatch(/— \*\(interrupted\)\*$/);
    expect(claude[0]?.text).not.toContain('point39');
    expect(claude[0]?.interrupted).toBe(true);
    const shown = test.transport.messages.find((message) => message.externalId === preview?.externalId);
    expect(shown?.content).toMatch(/\(interrupted\)/);
    await getGlobalTraceProvider().forceFlush();
    const session = await sessionOf(test, room);
    const traces = await test.app.repositories.traces.listTraces({ sessionId: session.id, limit: 200 });
    const spans = (await Promise.all(traces.map((trace) => test.app.repositories.traces.getTrace(trace.id)))).flatMap((detail) => detail?.spans ?? []);
    const cut = spans.filter((span) => span.type === 'generation' && span.data.agent === 'Claude' && span.error !== null);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut[0]?.error).toEqual({ message: 'cut short', data: { status: 'cut', reason: 'stopped' } });
    // A stop is nobody's fault: the trace list counts no errors for it, and the errors filter does not show the turn.
    const turn = traces.find((trace) => trace.id === cut[0]?.traceId);
    expect(turn?.errorCount).toBe(0);
    const failed = await test.app.repositories.traces.listTraces({ sessionId: session.id, errorsOnly: true, limit: 200 });
    expect(failed.map((trace) => trace.id)).not.toContain(turn?.id);
  });
});
