import { getGlobalTraceProvider } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedVerdict } from '../support/scripted-moderation.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

const CHECK_INTERVAL = 3;

const verdict = (overrides: Record<string, unknown>) => scriptedVerdict(overrides);

async function approvedSession(test: TestApp, topic: string): Promise<string> {
  await test.say(null, topic);
  await test.settle();
  const room = test.transport.rooms.at(-1)?.roomId ?? '';
  await test.say(room, 'Two product teams, one shared API; we want faster pages.');
  await test.settle();
  await test.command(room, 'approve');
  return room;
}

async function sessionOf(test: TestApp, room: string) {
  const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
  if (!session) throw new Error('no session');
  return session;
}

describe('the Moderator through the app', () => {
  let fake: FakeOpenRouter;
  let test: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenRouter();
    test = await startTestApp(
      fakeEnvironment(fake.url, {
        MODERATOR_CHECK_INTERVAL: String(CHECK_INTERVAL),
        MODERATOR_MAX_DRIFT_WARNINGS: '1',
        MAX_AI_ROUNDS_WITHOUT_HUMAN: '4',
        MAX_AI_RESPONSES_PER_TURN: '3',
      }),
    );
  });
  afterAll(async () => {
    await test?.stop();
    await fake?.close();
  });

  it('redirects a scripted drift within one check interval, then ends persistent drift with the full wrap-up chain', async () => {
    for (const name of ['Claude', 'ChatGPT', 'Grok']) {
      fake.script(
        { participant: name },
        ...Array.from({ length: 12 }, (_, index) =>
          replies.text(`${name}: did you see the football final? Goal number ${index} was amazing.`.replace(`${name}: `, '')),
        ),
      );
    }
    fake.script(
      { role: 'moderator' },
      verdict({ message: 'Welcome! Our objectives are on the plan above; who starts?' }),
      verdict({ action: 'redirect', drifting: true, message: 'Football is fun, but let us come back to caching the API: which layer first?' }),
      verdict({ action: 'redirect', drifting: true, message: 'Still off topic.' }),
    );
    const room = await approvedSession(test, 'How should we cache our public API responses?');
    await test.settle();

    const transcript = test.transport.room(room);
    // Stored order (deliveries run as jobs, so the room's order may lag behind what was said).
    const stored = await test.app.repositories.messages.listForSession((await sessionOf(test, room)).id);
    const redirectAt = stored.findIndex((message) => message.speaker.kind === 'moderator' && message.text.startsWith('Football is fun'));
    expect(redirectAt).toBeGreaterThan(0);
    const participantMessagesBefore = stored.slice(0, redirectAt).filter((message) => message.speaker.kind === 'participant').length;
    expect(participantMessagesBefore).toBeGreaterThan(0);
    expect(participantMessagesBefore).toBeLessThanOrEqual(CHECK_INTERVAL);
    expect(transcript.some((message) => message.speaker === 'Moderator' && message.content.startsWith('Football is fun'))).toBe(true);

    const session = await sessionOf(test, room);
    expect(session.status).toBe('completed');
    expect(session.endReason).toMatch(/kept drifting/);
    const closing = transcript.at(-1);
    expect(closing?.speaker).toBe('Moderator');
    expect(closing?.content).toContain('Thank you all');
    expect(closing?.content).toContain('Key findings');

    await getGlobalTraceProvider().forceFlush();
    const traces = await test.app.repositories.traces.listTraces({ sessionId: session.id, limit: 200 });
    const spans = (await Promise.all(traces.map((trace) => test.app.repositories.traces.getTrace(trace.id)))).flatMap((detail) => detail?.spans ?? []);
    const handoffs = spans.filter((span) => span.type === 'handoff').map((span) => `${String(span.data.from_agent)}->${String(span.data.to_agent)}`);
    expect(handoffs).toEqual(expect.arrayContaining(['Moderator->Scribe', 'Scribe->TLDR']));
    const wrapUpTrace = spans.find((span) => span.type === 'handoff' && span.data.from_agent === 'Scribe')?.traceId;
    expect(spans.filter((span) => span.traceId === wrapUpTrace && span.type === 'handoff')).toHaveLength(2);
  });
});

describe('balance and goals through the app', () => {
  let fake: FakeOpenRouter;
  let test: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenRouter();
    test = await startTestApp(
      // Five rounds: the silent seat shows after three (six answers), and the check after the invite needs more.
      fakeEnvironment(fake.url, { MODERATOR_CHECK_INTERVAL: String(CHECK_INTERVAL), MAX_AI_ROUNDS_WITHOUT_HUMAN: '5', MAX_AI_RESPONSES_PER_TURN: '3' }),
    );
  });
  afterAll(async () => {
    await test?.stop();
    await fake?.close();
  });

  it('invites a silent participant in, then ends early when the objectives are met', async () => {
    // Grok answers with nothing: its answers are withheld, so its seat stays silent while the others talk.
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 40 }, () => replies.text('')));
    fake.script(
      { role: 'moderator' },
      verdict({ message: 'Welcome, everyone!' }),
      verdict({ action: 'invite', target: 'Grok', message: 'Grok, we would love your view on the cache layer.' }),
      verdict({ action: 'end', objectivesMet: true, quality: 9, message: 'All objectives are met.' }),
    );
    const room = await approvedSession(test, 'Which cache layer should our API use?');
    await test.settle();
    const transcript = test.transport.room(room);
    expect(transcript.some((message) => message.speaker === 'Moderator' && message.content.includes('Grok, we would love your view'))).toBe(true);
    const session = await sessionOf(test, room);
    expect(session.status).toBe('completed');
    expect(session.endReason).toBe('the objectives of the plan were met');
    expect(transcript.at(-1)?.content).toContain('Thank you all');
  });

  it('!focus on what a person names: the Moderator is told, and the room hears the redirect to it', async () => {
    const room = await approvedSession(test, 'How should our API handle cache invalidation?');
    await test.settle();
    fake.script({ role: 'moderator' }, verdict({ action: 'continue', message: '' }));
    const reply = await test.command(room, 'focus', 'on: purge latency');
    expect(reply.content).toBe('The Moderator has asked everyone to focus on “purge latency”.');
    // The check's input names what the person asked for (the post step that follows is another Moderator call).
    const checks = fake.chats.filter((chat) => chat.agent.role === 'moderator' && JSON.stringify(chat.body.messages).includes('"Moderation check ('));
    expect(JSON.stringify(checks.at(-1)?.body.messages)).toContain('asked the Moderator to refocus the discussion on \\"purge latency\\"');
    await test.settle();
    const redirect = test.transport.room(room).find((message) => message.speaker === 'Moderator' && message.content.includes('focus on "purge latency"'));
    expect(redirect?.content).toContain('Where does "purge latency" take us on');
  });
});
