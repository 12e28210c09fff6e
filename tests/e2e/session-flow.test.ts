import { getGlobalTraceProvider } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { randomIds } from '../../src/core/ids.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres } from '../support/databases.ts';
import { MemoryTransport } from '../support/memory-transport.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { alice, fakeEnvironment, startTestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
});
afterAll(async () => {
  await fake?.close();
  await database?.drop();
});

describe('a whole session through the fake OpenRouter, surviving a restart', () => {
  it('topic -> questions -> answers -> plan -> restart -> !approve -> parallel answers -> AI rounds -> interjection -> limit', async () => {
    const environment = fakeEnvironment(fake.url, { DATABASE_URL: database.url, MAX_AI_ROUNDS_WITHOUT_HUMAN: '2' });
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const transport = new MemoryTransport();
    const location = { kind: 'postgres' as const, url: database.url };

    const first = await startTestApp(environment, { clock, transport, database: location });
    fake.script({ role: 'planner' }, replies.json({ questions: ['Who ships?', 'What went wrong before?'] }));
    await first.say(null, 'How should a small team adopt feature flags?');
    await first.settle();
    const room = transport.rooms[0]!.roomId;
    expect(transport.room(room).at(-1)?.content).toContain('1. Who ships?');

    fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages: 12 })));
    await first.say(room, 'Five engineers; a bad deploy took us down last month.');
    await first.settle();
    expect(transport.room(room).at(-1)?.content).toMatch(/Proposed plan/);
    // The Planner saw the person's answer, attributed to them.
    const planRequest = fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!;
    expect(JSON.stringify(planRequest.body.messages)).toContain('Answers from Alice: Five engineers');
    await first.stop();

    // A new process on the same database: the paused run is restored from its serialised state.
    const second = await startTestApp(environment, { clock, transport, database: location });
    const approval = await second.command(room, 'approve');
    expect(approval.content).toMatch(/approved/i);
    await second.settle();
    const afterApproval = transport.room(room);
    const speakers = afterApproval.map((message) => message.speaker);
    expect(speakers).toContain('Moderator');
    for (const name of ['Claude', 'ChatGPT', 'Grok']) expect(speakers.filter((speaker) => speaker === name).length).toBeGreaterThanOrEqual(2);
    // AI-to-AI rounds: later answers reply to other participants.
    const aiReplies = afterApproval.filter((message) => message.speakerKind === 'participant').flatMap((message) => message.replyTo);
    expect(aiReplies).toEqual(expect.arrayContaining(['Claude', 'Grok']));
    // Each participant's prompt attributes every other speaker by name.
    const grokRequest = fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Grok').at(-1)!;
    expect(JSON.stringify(grokRequest.body.messages)).toMatch(/\[Claude\]: /);
    expect(JSON.stringify(grokRequest.body.messages)).toMatch(/\[Alice \(person\)\]: /);

    await second.say(room, 'What about kill switches for the payment flow?', alice);
    await second.settle();
    const answeredAlice = transport.room(room).filter((message) => message.replyTo.includes('Alice'));
    expect(answeredAlice.length).toBeGreaterThanOrEqual(3);

    const session = await second.app.repositories.sessions.findByRoom('memory', room);
    expect(session?.status).toBe('completed');
    expect(session?.endReason).toMatch(/message limit/);
    expect(session?.messageCount).toBeGreaterThanOrEqual(12);
    const closing = transport.room(room).at(-1)!;
    expect(closing.content).toMatch(/Thank you all/);
    // Without Notion the closing still links to the documents: the console's view and the markdown files.
    expect(closing.content).toMatch(/\[Detailed record\]\(http:\/\/[^)]+\/#\/sessions\/[^)]+\/documents\/record\) — markdown file: `[^`]+record\.md`/);
    expect(closing.content).toMatch(/\[TLDR\]\(http:\/\/[^)]+\/documents\/tldr\)/);
    // Every agent's message links to the trace that wrote it, and the wrap-up trace links to the closing.
    const stored = await second.app.repositories.messages.listForSession(session?.id ?? '');
    expect(
      stored
        .filter((message) => !['human', 'system'].includes(message.speaker.kind) && !message.traceId)
        .map((message) => `${message.speaker.name}: ${message.text.slice(0, 60)}`),
    ).toEqual([]);
    const closingMessage = stored.at(-1);
    await getGlobalTraceProvider().forceFlush();
    const wrapUp = await second.app.repositories.traces.getTrace(closingMessage?.traceId ?? '');
    expect(wrapUp?.trace.name).toBe('Wrap-up');
    expect(wrapUp?.spans.some((span) => span.messageId === closingMessage?.id)).toBe(true);
    await second.stop();
  });
});

describe('a restart in the middle of a discussion', () => {
  it('answers the person who spoke just before the process went down, and delivers what was pending', async () => {
    const environment = fakeEnvironment(fake.url, { DATABASE_URL: database.url, SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' });
    const clock = new ManualClock('2026-06-01T09:00:00Z');
    const transport = new MemoryTransport('memory', 'drill');
    const location = { kind: 'postgres' as const, url: database.url };
    // This database already holds the first test's sessions: random ids, as in production.
    const first = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
    fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
    await first.say(null, 'Restart drill: how do we keep sessions alive?');
    await first.settle();
    const room = transport.rooms.at(-1)!.roomId;
    await first.command(room, 'approve');
    await first.settle();
    // The person speaks; the process dies before any participant could answer.
    fake.script({ participant: 'Claude' }, replies.hang());
    fake.script({ participant: 'ChatGPT' }, replies.hang());
    fake.script({ participant: 'Grok' }, replies.hang());
    await first.say(room, 'Does this survive a crash?');
    await first.stop();
    fake.reset();

    const second = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
    await second.settle();
    const question = transport.room(room).length;
    const answers = transport.room(room).filter((message) => message.replyTo.includes('Alice') && message.speakerKind === 'participant');
    expect(new Set(answers.map((message) => message.speaker))).toEqual(new Set(['Claude', 'ChatGPT', 'Grok']));
    expect(question).toBeGreaterThan(0);
    const session = await second.app.repositories.sessions.findByRoom('memory', room);
    expect(session?.status).toBe('active');
    await second.stop();
  });
});
