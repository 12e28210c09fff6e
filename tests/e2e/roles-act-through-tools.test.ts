/**
 * The roles act through their tools: the Moderator reads `check_limits` and posts its redirects and closing with
 * `post_to_discord`; the Scribe and the TLDR write with `update_notion`; the guardrails on those tools reject a
 * record that drops a voice and a summary citing messages that do not exist. Every session's traces show it.
 */
import { getGlobalTraceProvider } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedVerdict } from '../support/scripted-moderation.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

const CHECK_INTERVAL = 3;

const verdict = (overrides: Record<string, unknown>) => scriptedVerdict(overrides);

let fake: FakeOpenRouter | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.stop();
  await fake?.close();
});

async function start(options: { literal?: boolean } = {}): Promise<TestApp> {
  fake = await startFakeOpenRouter(options.literal ? { fallback: 'literal' } : {});
  test = await startTestApp(
    fakeEnvironment(fake.url, {
      MODERATOR_CHECK_INTERVAL: String(CHECK_INTERVAL),
      MODERATOR_MAX_DRIFT_WARNINGS: '1',
      MAX_AI_ROUNDS_WITHOUT_HUMAN: '4',
      MAX_AI_RESPONSES_PER_TURN: '3',
      SESSION_PLANNER_MAX_QUESTIONS: '0',
    }),
  );
  return test;
}

async function runSession(app: TestApp, topic: string): Promise<{ room: string; sessionId: string }> {
  await app.say(null, topic);
  await app.settle();
  const room = app.transport.rooms.at(-1)?.roomId ?? '';
  await app.command(room, 'approve');
  await app.settle();
  const session = await app.app.repositories.sessions.findByRoom(app.transport.name, room);
  if (!session) throw new Error('no session');
  return { room, sessionId: session.id };
}

async function spansOf(app: TestApp, sessionId: string) {
  await getGlobalTraceProvider().forceFlush();
  const traces = await app.app.repositories.traces.listTraces({ sessionId, limit: 500 });
  return (await Promise.all(traces.map((trace) => app.app.repositories.traces.getTrace(trace.id)))).flatMap((detail) => detail?.spans ?? []);
}

function toolSpans(spans: Awaited<ReturnType<typeof spansOf>>, name: string) {
  return spans.filter((span) => span.type === 'function' && span.data.name === name);
}

function scriptDrift(): void {
  for (const name of ['Claude', 'ChatGPT', 'Grok']) {
    fake?.script(
      { participant: name },
      ...Array.from({ length: 12 }, (_, index) => replies.text(`Did you see the football final? Goal ${index} was amazing.`)),
    );
  }
  fake?.script(
    { role: 'moderator' },
    verdict({ message: 'Welcome! Who starts?' }),
    verdict({ action: 'redirect', drifting: true, message: 'Football is fun, but back to caching the API: which layer first?' }),
    verdict({ action: 'redirect', drifting: true, message: 'Still off topic.' }),
  );
}

describe('the roles act through their tools', () => {
  it('the Moderator reads check_limits and posts its redirect and closing with post_to_discord; Scribe and TLDR write with update_notion', async () => {
    const app = await start();
    scriptDrift();
    const { room, sessionId } = await runSession(app, 'How should we cache our public API responses?');
    const transcript = app.transport.room(room);
    expect(transcript.some((message) => message.speaker === 'Moderator' && message.content.startsWith('Football is fun'))).toBe(true);
    expect(transcript.at(-1)?.content).toContain('Thank you all');

    const spans = await spansOf(app, sessionId);
    expect(toolSpans(spans, 'check_limits').length).toBeGreaterThan(0);
    const posts = toolSpans(spans, 'post_to_discord').map((span) => String(span.data.input ?? ''));
    expect(posts.some((input) => input.includes('Football is fun'))).toBe(true);
    expect(posts.some((input) => input.includes('Thank you all'))).toBe(true);
    expect(toolSpans(spans, 'update_notion').length).toBeGreaterThanOrEqual(2);
    const record = await app.app.repositories.documents.find(sessionId, 'record');
    const tldr = await app.app.repositories.documents.find(sessionId, 'tldr');
    expect(record?.content).toMatch(/Claude/);
    expect(tldr?.content).toMatch(/## Key findings/);
  });

  it('a TLDR citing a message that does not exist is sent back by the guardrail, and the corrected summary is stored', async () => {
    const app = await start();
    scriptDrift();
    const invented = { finding: 'An invented point', sources: ['#999'] };
    fake?.script({ role: 'tldr' }, replies.toolCall('update_notion', { summary: 'Invented.', keyFindings: [invented, invented, invented] }));
    const { sessionId } = await runSession(app, 'How should we cache our public API responses?');
    const tldr = await app.app.repositories.documents.find(sessionId, 'tldr');
    expect(tldr?.content).not.toContain('An invented point');
    expect(tldr?.content).toMatch(/#\d+/);
    const spans = await spansOf(app, sessionId);
    const rejected = spans.filter((span) => span.type === 'guardrail' && span.data.name === 'summary_findings_cited' && span.data.triggered === true);
    expect(rejected.length).toBeGreaterThan(0);
  });

  it('a record that drops a participant is sent back; what is stored names every voice', async () => {
    const app = await start();
    scriptDrift();
    fake?.script(
      { role: 'scribe' },
      replies.toolCall('update_notion', { markdown: `# Record\n\nOnly Claude spoke about football (#1). ${'More detail. '.repeat(40)}` }),
    );
    const { sessionId } = await runSession(app, 'How should we cache our public API responses?');
    const record = await app.app.repositories.documents.find(sessionId, 'record');
    for (const name of ['Claude', 'ChatGPT', 'Grok']) expect(record?.content).toContain(name);
    const spans = await spansOf(app, sessionId);
    const rejected = spans.filter((span) => span.type === 'guardrail' && span.data.name === 'record_covers_every_voice' && span.data.triggered === true);
    expect(rejected.length).toBeGreaterThan(0);
  });

  it('with a literal model that never volunteers a tool call, the session still closes and every act shows its tool span', async () => {
    const app = await start({ literal: true });
    const { room, sessionId } = await runSession(app, 'How should we cache our public API responses?');
    // A person stops it (the test sent `!end` before, which only names `!stop`): the wrap-up still comes through its tool.
    expect((await app.command(room, 'stop')).content).toMatch(/Stopped/);
    await app.settle();
    const session = await app.app.repositories.sessions.findById(sessionId);
    expect(session?.status).toBe('stopped');
    const spans = await spansOf(app, sessionId);
    expect(toolSpans(spans, 'post_to_discord').length).toBeGreaterThan(0);
    expect(app.transport.room(room).at(-1)?.speaker).toBe('Moderator');
    // The literal participants say their answer again: the room hears it once for the round, not once per participant.
    const repeats = app.transport.room(room).filter((message) => message.speaker === 'Brainstorm' && message.content.includes('repeated'));
    expect(repeats).toHaveLength(1);
    expect(repeats[0]?.content).toMatch(/^\w+, \w+ and \w+ repeated their own answers/);
    // The literal Scribe never wrote a record that passes its checks: the statistics record stands in, and the closing
    // links only the documents there are.
    const record = await app.app.repositories.documents.find(sessionId, 'record');
    expect(record?.content).toMatch(/^# Detailed record \(statistics only\)/);
    const closing = app.transport.room(room).at(-1)?.content ?? '';
    expect(closing).toContain('[Detailed record](');
    const tldr = await app.app.repositories.documents.find(sessionId, 'tldr');
    expect(closing.includes('[TLDR](')).toBe(tldr !== null);
  });
});
