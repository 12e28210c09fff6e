import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { DocumentsRepository } from '../../../src/repositories/documents-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { TracesRepository } from '../../../src/repositories/traces-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { ConsoleQueries } from '../../../src/services/console/console-queries.ts';
import type { SessionPlan } from '../../../src/core/domain.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { span } from './support/scripted-gateway.ts';

const PLAN: SessionPlan = {
  expandedTopic: 'Topic',
  objectives: ['One'],
  keyAreas: ['Area'],
  expectedFlow: ['Flow'],
  parameters: { maxMessages: 10, maxTokens: 1000, maxCostUsd: 0.5, timeoutMinutes: 20, maxContextPercent: 80 },
  estimate: { durationMinutes: 5, costUsd: 0.1, messages: 8 },
  critiqueRound: false,
};

describe.each(ENGINES)('ConsoleQueries on %s', (engine) => {
  let database: DatabaseHandle;
  let queries: ConsoleQueries;
  const clock = new ManualClock('2026-04-01T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const sessions = new SessionsRepository(database.db);
    const messages = new MessagesRepository(database.db);
    const documents = new DocumentsRepository(database.db);
    const traces = new TracesRepository(database.db);
    queries = new ConsoleQueries({ sessions, messages, documents, traces }, clock);
    await sessions.create(
      {
        id: 'ses_a',
        parentId: null,
        transport: 'discord',
        roomId: 'thread_1',
        roomUrl: 'https://discord.com/channels/1/2',
        originChannelId: '2',
        originMessageId: 'm0',
        topic: 'Roadmap',
        status: 'planning',
        createdBy: { id: 'u1', name: 'Ada' },
      },
      clock.now(),
    );
    await sessions.update('ses_a', { status: 'active', plan: PLAN, startedAt: clock.now() }, clock.now());
    const human = await messages.insert(
      { sessionId: 'ses_a', speaker: { kind: 'human', name: 'Ada' }, role: 'user', text: 'Go', deliveryStatus: 'received' },
      clock.now(),
    );
    const answer = await messages.insert(
      {
        sessionId: 'ses_a',
        speaker: { kind: 'participant', name: 'Grok' },
        role: 'assistant',
        text: 'Idea',
        model: 'x-ai/grok-4',
        inputTokens: 300,
        outputTokens: 40,
        costUsd: 0.01,
        traceId: 'tr_1',
        deliveryStatus: 'delivered',
        externalUrl: 'https://discord.com/channels/1/2/3',
      },
      clock.now(),
    );
    await sessions.addUsage('ses_a', { messages: 1, tokens: 340, costUsd: 0.01 }, clock.now());
    await documents.write('ses_a', 'tldr', '## Summary', {}, clock.now());
    await traces.upsertTraces([
      { id: 'tr_1', sessionId: 'ses_a', name: 'Turn', groupId: 'ses_a', metadata: {}, startedAt: clock.now(), endedAt: new Date(clock.now().getTime() + 900) },
    ]);
    const start = clock.now().getTime();
    await traces.upsertSpans([
      span({
        id: 'sp_a',
        traceId: 'tr_1',
        sessionId: 'ses_a',
        type: 'agent',
        name: 'Grok',
        startedAt: new Date(start),
        endedAt: new Date(start + 800),
        data: { name: 'Grok' },
      }),
      span({
        id: 'sp_g',
        traceId: 'tr_1',
        sessionId: 'ses_a',
        parentId: 'sp_a',
        type: 'generation',
        name: 'generation',
        startedAt: new Date(start + 5),
        endedAt: new Date(start + 700),
        model: 'x-ai/grok-4',
        inputTokens: 300,
        outputTokens: 40,
        costUsd: 0.01,
        messageId: answer.message.id,
        data: { agent: 'Grok' },
      }),
    ]);
    expect(human.created).toBe(true);
    await clock.advance(5 * 60_000);
  });
  afterAll(async () => database.close());

  it('summarises sessions with their participants and usage (every message counted, as the transcript shows them)', async () => {
    const [summary] = await queries.listSessions();
    expect(summary).toMatchObject({
      id: 'ses_a',
      status: 'active',
      participants: ['Grok'],
      messageCount: 2,
      totalTokens: 340,
      totalCostUsd: 0.01,
      startedAt: '2026-04-01T10:00:00.000Z',
    });
  });

  it('draws limits as bars against the plan, minutes from the injected clock', async () => {
    const detail = await queries.getSession('ses_a');
    expect(detail?.limits).toEqual([
      { name: 'messages', used: 1, limit: 10, percent: 10 },
      { name: 'tokens', used: 340, limit: 1000, percent: 34 },
      { name: 'cost', used: 0.01, limit: 0.5, percent: 2 },
      { name: 'minutes', used: 5, limit: 20, percent: 25 },
    ]);
    expect(detail?.tldr?.content).toBe('## Summary');
    expect(detail?.record).toBeNull();
    expect(detail?.usage).toEqual([{ name: 'Grok', generations: 1, inputTokens: 300, outputTokens: 40, costUsd: 0.01 }]);
    expect(await queries.getSessionByRoom('discord', 'thread_1')).not.toBeNull();
    expect(await queries.getSession('nope')).toBeNull();
  });

  it('links a generation span to its message and its Discord jump URL', async () => {
    const trace = await queries.getTrace('tr_1');
    const generation = trace?.spans.find((entry) => entry.kind === 'generation');
    expect(generation).toMatchObject({
      agentName: 'Grok',
      depth: 1,
      inputTokens: 300,
      message: { speakerName: 'Grok', externalUrl: 'https://discord.com/channels/1/2/3' },
    });
    const [listed] = await queries.searchTraces({ agent: 'Grok' });
    expect(listed).toMatchObject({ id: 'tr_1', sessionTopic: 'Roadmap', spanCount: 2, inputTokens: 300, durationMs: 900 });
    expect(await queries.searchTraces({ agent: 'Claude' })).toEqual([]);
  });
});
