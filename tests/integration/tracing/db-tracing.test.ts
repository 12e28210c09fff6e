import { Agent, createGenerationSpan, getGlobalTraceProvider, run, tool, withCustomSpan, withTrace } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelCatalog } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { TracesRepository, type SpanRecord } from '../../../src/repositories/traces-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { DbTracingProcessor } from '../../../src/tracing/db-tracing-processor.ts';
import { installTracing } from '../../../src/tracing/install-tracing.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const SECRET = 'known-secret-value-123456';

/** The traces store, keeping every batch of span rows it was asked to write. */
class RecordingTraces extends TracesRepository {
  readonly batches: SpanRecord[][] = [];

  override async upsertSpans(spans: SpanRecord[]): Promise<void> {
    this.batches.push(spans);
    await super.upsertSpans(spans);
  }
}

describe.each(ENGINES)('DB tracing on %s', (engine) => {
  let database: DatabaseHandle;
  let fake: FakeOpenRouter;
  let repository: TracesRepository;
  let processor: DbTracingProcessor;
  let models: ModelCatalog;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    fake = await startFakeOpenRouter();
    repository = new TracesRepository(database.db);
    processor = new DbTracingProcessor(repository, { secrets: [SECRET], clock: new ManualClock() });
    installTracing([processor]);
    models = new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: SECRET }).models, { clock: new ManualClock() });
  });
  afterAll(async () => {
    await processor.shutdown();
    await fake.close();
    await database.close();
  });

  it('stores trace, agent, generation (tokens, cost), function and custom spans of a turn', async () => {
    const lookup = tool({
      name: 'check_limits',
      description: 'Reports the limits.',
      parameters: z.object({ detail: z.string() }),
      execute: async ({ detail }) => `limits ok (${detail})`,
    });
    const agent = new Agent({
      name: 'Claude',
      instructions: 'You are Claude, a participant in a Brainstorm session.',
      model: models.participant('claude'),
      tools: [lookup],
    });
    fake.script(
      { participant: 'Claude' },
      { ...replies.toolCall('check_limits', { detail: 'all' }), usage: { promptTokens: 120, completionTokens: 10, costUsd: 0.001 } },
      replies.text(`Answer that leaks ${SECRET} by accident.`, { usage: { promptTokens: 200, completionTokens: 30, costUsd: 0.0025 } }),
    );
    const traceId = await withTrace(
      'participant turn',
      async (trace) => {
        await run(agent, `[Sam]: what about ${SECRET}?`);
        await withCustomSpan(async () => undefined, { data: { name: 'deliver_message', data: { messageId: 42 } } });
        return trace.traceId;
      },
      { groupId: 'ses_trace_1' },
    );
    await processor.forceFlush();

    const stored = await repository.getTrace(traceId);
    expect(stored?.trace).toMatchObject({ name: 'participant turn', sessionId: 'ses_trace_1' });
    expect(stored?.trace.endedAt).not.toBeNull();
    const spans = stored?.spans ?? [];
    // Spans carry the SDK's wall-clock times; the trace's extent follows them, whatever clock the app injects.
    expect(stored?.trace.startedAt.getTime()).toBe(Math.min(...spans.map((span) => span.startedAt.getTime())));
    expect(stored?.trace.endedAt?.getTime()).toBe(Math.max(...spans.map((span) => span.endedAt?.getTime() ?? 0)));
    const generations = spans.filter((span) => span.type === 'generation');
    expect(generations.map((span) => [span.inputTokens, span.outputTokens, span.costUsd, span.model])).toEqual([
      [120, 10, 0.001, 'anthropic/claude-sonnet-4'],
      [200, 30, 0.0025, 'anthropic/claude-sonnet-4'],
    ]);
    expect(generations.every((span) => span.data.agent === 'Claude' && span.sessionId === 'ses_trace_1')).toBe(true);
    const agentSpan = spans.find((span) => span.type === 'agent');
    expect(agentSpan?.name).toBe('Claude');
    const parentOf = new Map(spans.map((span) => [span.id, span.parentId]));
    const ancestors = (id: string | null): string[] => (id ? [id, ...ancestors(parentOf.get(id) ?? null)] : []);
    expect(generations.every((span) => ancestors(span.parentId).includes(agentSpan?.id ?? '-'))).toBe(true);
    expect(new Set(spans.map((span) => span.type))).toEqual(new Set(['task', 'agent', 'turn', 'generation', 'function', 'custom']));
    const functionSpan = spans.find((span) => span.type === 'function');
    expect(functionSpan).toMatchObject({ name: 'check_limits' });
    expect(functionSpan?.data.output).toBe('limits ok (all)');
    expect(spans.find((span) => span.type === 'custom')).toMatchObject({ name: 'deliver_message', messageId: 42 });
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(JSON.stringify(stored)).toContain('[redacted]');

    expect(await repository.totalsForTrace(traceId)).toEqual({ inputTokens: 320, outputTokens: 40, costUsd: 0.0035 });
    expect(await repository.totalsByAgent('ses_trace_1')).toEqual([{ agent: 'Claude', generations: 2, inputTokens: 320, outputTokens: 40, costUsd: 0.0035 }]);
    expect((await repository.spansForMessage(42)).map((span) => span.name)).toEqual(['deliver_message']);
  });

  it("writes a long model call's input once: its end leaves it out, and the stored row keeps it beside the output", async () => {
    const recording = new RecordingTraces(database.db);
    const own = new DbTracingProcessor(recording, { clock: new ManualClock() });
    const trace = getGlobalTraceProvider().createTrace({ name: 'long call', groupId: 'ses_trace_3' });
    await own.onTraceStart(trace);
    const input = [{ role: 'user', content: 'the whole conversation so far' }];
    const generation = createGenerationSpan({ data: { model: 'm', input } }, trace);
    generation.start();
    await own.onSpanStart(generation);
    await own.forceFlush();
    generation.spanData.output = [{ role: 'assistant', content: 'the answer' }];
    generation.end();
    await own.onSpanEnd(generation);
    await own.onTraceEnd(trace);
    await own.forceFlush();

    const [started, ended] = recording.batches.map((batch) => batch.find((span) => span.id === generation.spanId));
    expect(started?.data).toHaveProperty('input', input);
    expect(ended?.endedAt).not.toBeNull();
    expect(ended?.data).not.toHaveProperty('input');
    const stored = (await recording.getTrace(trace.traceId))?.spans.find((span) => span.id === generation.spanId);
    expect(stored?.data).toMatchObject({ input, output: [{ role: 'assistant', content: 'the answer' }], model: 'm' });
    expect(stored?.endedAt).not.toBeNull();
  });

  it('records cost of a streamed generation and errors of a failed one, and filters traces', async () => {
    const agent = new Agent({ name: 'Grok', instructions: 'You are Grok, a participant in a Brainstorm session.', model: models.participant('grok') });
    fake.script(
      { participant: 'Grok' },
      replies.text('streamed words here', { usage: { promptTokens: 80, completionTokens: 5, costUsd: 0.0009 } }),
      replies.httpError(400, 'bad'),
    );
    const streamedTrace = await withTrace(
      'streamed turn',
      async (trace) => {
        const result = await run(agent, 'Go', { stream: true });
        await result.completed;
        return trace.traceId;
      },
      { groupId: 'ses_trace_2' },
    );
    const failedTrace = await withTrace(
      'failed turn',
      async (trace) => {
        await run(agent, 'Go').catch(() => undefined);
        return trace.traceId;
      },
      { groupId: 'ses_trace_2' },
    );
    await processor.forceFlush();

    expect(await repository.totalsForTrace(streamedTrace)).toEqual({ inputTokens: 80, outputTokens: 5, costUsd: 0.0009 });
    const failed = await repository.getTrace(failedTrace);
    expect(failed?.spans.some((span) => span.type === 'generation' && span.error !== null)).toBe(true);

    const bySession = await repository.listTraces({ sessionId: 'ses_trace_2' });
    expect(bySession.map((trace) => trace.name).sort()).toEqual(['failed turn', 'streamed turn']);
    expect((await repository.listTraces({ errorsOnly: true })).map((trace) => trace.id)).toEqual([failedTrace]);
    expect((await repository.listTraces({ agent: 'Claude' })).map((trace) => trace.name)).toEqual(['participant turn']);
    expect((await repository.listTraces({ model: 'x-ai/grok-3' })).map((trace) => trace.name).sort()).toEqual(['failed turn', 'streamed turn']);
    expect((await repository.listTraces({ text: 'streamed words' })).map((trace) => trace.id)).toEqual([streamedTrace]);
    const summary = bySession.find((trace) => trace.id === streamedTrace);
    expect(summary).toMatchObject({ inputTokens: 80, outputTokens: 5, costUsd: 0.0009, errorCount: 0 });
  });
});
