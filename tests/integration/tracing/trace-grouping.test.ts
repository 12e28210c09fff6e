import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenHumanMessage } from '../../../src/agents/guardrails/index.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { DocumentsRepository } from '../../../src/repositories/documents-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { TracesRepository } from '../../../src/repositories/traces-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { ConsoleQueries } from '../../../src/services/console/console-queries.ts';
import { DbTracingProcessor } from '../../../src/tracing/db-tracing-processor.ts';
import { installTracing, uninstallTracing } from '../../../src/tracing/install-tracing.ts';
import { span } from '../web/support/scripted-gateway.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

describe.each(ENGINES)('traces as the console lists them, on %s', (engine) => {
  let database: DatabaseHandle;
  let traces: TracesRepository;
  let processor: DbTracingProcessor;
  let queries: ConsoleQueries;
  const announced: { traceId: string; sessionId: string | null }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    traces = new TracesRepository(database.db);
    processor = new DbTracingProcessor(traces, { clock: new ManualClock(), onStored: (stored) => announced.push(...stored) });
    installTracing([processor]);
    const repositories = {
      sessions: new SessionsRepository(database.db),
      messages: new MessagesRepository(database.db),
      documents: new DocumentsRepository(database.db),
      traces,
    };
    queries = new ConsoleQueries(repositories, new ManualClock());
  });
  afterAll(async () => {
    uninstallTracing();
    await database.close();
  });

  it("gathers a session's human-message checks in one trace, not one trace each", async () => {
    for (const text of ['first idea', 'second idea', 'third idea']) await screenHumanMessage(text, { maxChars: 1000, sessionId: 'ses_grouped' });
    await processor.forceFlush();
    const listed = await queries.searchTraces({ sessionId: 'ses_grouped' });
    expect(listed.map((trace) => [trace.name, trace.spanCount])).toEqual([['Human messages screened', 3]]);
    // The write is announced with its session, so a session page refreshes its usage live.
    expect(announced).toContainEqual({ traceId: listed[0]?.id, sessionId: 'ses_grouped' });
  });

  it('keeps a trace its first name when a resumed run reports it again under the workflow name', async () => {
    const at = new Date('2026-03-01T10:00:00Z');
    await traces.upsertTraces([
      { id: 'trace_resumed', sessionId: 's', name: 'Planner', groupId: 's', metadata: {}, startedAt: at, endedAt: new Date(at.getTime() + 1000) },
    ]);
    await traces.upsertTraces([
      {
        id: 'trace_resumed',
        sessionId: 's',
        name: 'Brainstorm',
        groupId: 's',
        metadata: {},
        startedAt: new Date(at.getTime() + 60_000),
        endedAt: new Date(at.getTime() + 61_000),
      },
    ]);
    const [listed] = await queries.searchTraces({ sessionId: 's' });
    expect(listed?.name).toBe('Planner');
    expect(listed?.startedAt).toBe(at.toISOString());
  });

  it('gives a trace the same duration in the list as in its detail', async () => {
    const at = new Date('2026-03-01T11:00:00Z');
    // The trace row says 330 ms; its spans ran for 8.6 s (the SDK stamps spans with the wall clock).
    await traces.upsertTraces([
      { id: 'trace_long', sessionId: 'ses_long', name: 'Turn', groupId: 'ses_long', metadata: {}, startedAt: at, endedAt: new Date(at.getTime() + 330) },
    ]);
    await traces.upsertSpans([
      span({
        id: 'span_long',
        traceId: 'trace_long',
        sessionId: 'ses_long',
        type: 'agent',
        name: 'Claude',
        startedAt: new Date(at.getTime() + 100),
        endedAt: new Date(at.getTime() + 8_700),
      }),
    ]);
    const [listed] = await queries.searchTraces({ sessionId: 'ses_long' });
    const detail = await queries.getTrace('trace_long');
    expect(listed?.durationMs).toBe(8_700);
    expect(detail?.trace.durationMs).toBe(8_700);
  });
});
