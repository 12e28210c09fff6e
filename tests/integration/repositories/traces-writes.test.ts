import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { TracesRepository, type SpanRecord } from '../../../src/repositories/traces-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const start = new Date('2026-03-01T10:00:00.123Z');

function span(id: string, changes: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id,
    traceId: 'trace_1',
    parentId: null,
    sessionId: 'ses_1',
    type: 'generation',
    name: 'model call',
    startedAt: start,
    endedAt: null,
    data: { input: [{ role: 'user', content: 'It said "hi" \\ and ünïcödé 🎉' }] },
    error: null,
    model: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    costSource: null,
    messageId: null,
    ...changes,
  };
}

describe.each(ENGINES)('trace writes on %s', (engine) => {
  let handle: DatabaseHandle;
  let traces: TracesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    traces = new TracesRepository(handle.db);
  });
  afterEach(async () => handle.close());

  it('stores a batch of spans as given, then replaces what a span’s end changed and keeps its message link', async () => {
    await traces.upsertTraces([{ id: 'trace_1', sessionId: 'ses_1', name: 'turn', groupId: 'ses_1', metadata: {}, startedAt: start, endedAt: null }]);
    await traces.upsertSpans([span('a', { messageId: 7 }), span('b', { type: 'guardrail', name: 'no_secrets', data: { triggered: false } })]);
    const ended = new Date(start.getTime() + 2500);
    await traces.upsertSpans([
      span('a', { endedAt: ended, model: 'm1', inputTokens: 12, outputTokens: 5, costUsd: 0.25, costSource: 'provider', error: { message: 'cut' } }),
    ]);
    const stored = await traces.getTrace('trace_1');
    const byId = new Map(stored?.spans.map((entry) => [entry.id, entry]));
    expect(byId.get('a')).toMatchObject({
      startedAt: start,
      endedAt: ended,
      model: 'm1',
      inputTokens: 12,
      outputTokens: 5,
      costUsd: 0.25,
      costSource: 'provider',
      error: { message: 'cut' },
      messageId: 7,
      data: { input: [{ role: 'user', content: 'It said "hi" \\ and ünïcödé 🎉' }] },
    });
    expect(byId.get('b')).toMatchObject({ type: 'guardrail', name: 'no_secrets', data: { triggered: false }, error: null, endedAt: null });
  });

  it('deletes the oldest traces before the cutoff with their spans, at most `limit` a call, and nothing newer', async () => {
    const at = (hours: number) => new Date(start.getTime() + hours * 3_600_000);
    const ids = ['t3', 't1', 't2', 'recent'];
    const starts = [at(3), at(1), at(2), at(48)];
    await traces.upsertTraces(
      ids.map((id, index) => ({ id, sessionId: 'ses_1', name: 'turn', groupId: 'ses_1', metadata: {}, startedAt: starts[index]!, endedAt: null })),
    );
    await traces.upsertSpans(ids.map((id, index) => span(`span-${id}`, { traceId: id, startedAt: starts[index]! })));

    expect(await traces.deleteOlderThan(at(24), 2)).toBe(2);
    expect(await traces.getTrace('t1')).toBeNull();
    expect(await traces.getTrace('t2')).toBeNull();
    expect((await traces.getTrace('t3'))?.spans.map((entry) => entry.id)).toEqual(['span-t3']);
    expect(await traces.deleteOlderThan(at(24), 2)).toBe(1);
    expect(await traces.deleteOlderThan(at(24), 2)).toBe(0);
    expect((await traces.getTrace('recent'))?.spans.map((entry) => entry.id)).toEqual(['span-recent']);
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from spans`.execute(handle.db);
    expect(rows[0]?.count).toBe(1);
  });
});
