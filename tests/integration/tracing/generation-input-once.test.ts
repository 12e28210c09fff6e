import { Agent, run, withTrace } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelCatalog } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { TracesRepository, type SpanRecord } from '../../../src/repositories/traces-repository.ts';
import { DbTracingProcessor } from '../../../src/tracing/db-tracing-processor.ts';
import { installTracing, uninstallTracing } from '../../../src/tracing/install-tracing.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

/** Yields to the event loop until `ready` holds (the fake received a request); no wall-clock sleeps. */
async function until(ready: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !ready(); turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  if (!ready()) throw new Error('the model never received the request');
}

// A model that answers in seconds, as real ones do: the generation's start is written while it thinks, its end later.
describe.each(ENGINES)("a generation's input, written once, on %s", (engine) => {
  let database: DatabaseHandle;
  let fake: FakeOpenRouter;
  let clock: ManualClock;
  let repository: TracesRepository;
  let processor: DbTracingProcessor;
  const written: SpanRecord[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    clock = new ManualClock();
    fake = await startFakeOpenRouter({ clock });
    repository = new TracesRepository(database.db);
    const upsert = repository.upsertSpans.bind(repository);
    repository.upsertSpans = async (spans) => {
      written.push(...spans);
      await upsert(spans);
    };
    processor = new DbTracingProcessor(repository, { clock: new ManualClock(), flushDelayMs: 60_000 });
    installTracing([processor]);
  });
  afterAll(async () => {
    await processor.shutdown();
    uninstallTracing();
    await fake.close();
    await database.close();
  });

  it('stores the input with the start, sends the end without it, and the trace shows both', async () => {
    const models = new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: 'test-key' }).models, { clock: new ManualClock() });
    const agent = new Agent({ name: 'Claude', instructions: 'You are Claude, a participant in a Brainstorm session.', model: models.participant('claude') });
    fake.script({ participant: 'Claude' }, replies.text('Start with one small team.', { timing: { latencyMs: 3_000, firstTokenMs: 0 } }));
    const asked = 'What is the cheapest first step?';
    const traceId = await withTrace(
      'slow turn',
      async (trace) => {
        const result = await run(agent, asked, { stream: true });
        await until(() => fake.chats.length > 0);
        await processor.forceFlush(); // the flush timer, while the model thinks
        await clock.advance(3_000);
        for await (const _event of result) void _event;
        await result.completed;
        return trace.traceId;
      },
      { groupId: 'ses_input_once' },
    );
    await processor.forceFlush();

    const generationWrites = written.filter((span) => span.traceId === traceId && span.type === 'generation');
    expect(generationWrites.map((span) => [span.endedAt !== null, 'input' in span.data])).toEqual([
      [false, true],
      [true, false],
    ]);
    const stored = (await repository.getTrace(traceId))?.spans.find((span) => span.type === 'generation');
    expect(JSON.stringify(stored?.data.input)).toContain(asked);
    expect(JSON.stringify(stored?.data.output)).toContain('Start with one small team.');
    expect(stored?.endedAt).not.toBeNull();
  });

  it('replaces what other spans stored, and a generation written again with its input takes the new one', async () => {
    const base = { traceId: 'trace_replace', parentId: null, sessionId: null, name: 'n', startedAt: new Date(), error: null, model: null };
    const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, messageId: null };
    await repository.upsertTraces([{ id: 'trace_replace', sessionId: null, name: 't', groupId: null, metadata: {}, startedAt: new Date(), endedAt: null }]);
    await repository.upsertSpans([
      { ...base, ...usage, id: 'span_tool', type: 'function', endedAt: null, data: { input: '{"secret":"typed by mistake"}' } },
      { ...base, ...usage, id: 'span_generation', type: 'generation', endedAt: null, data: { input: ['first'] } },
    ]);
    await repository.upsertSpans([
      { ...base, ...usage, id: 'span_tool', type: 'function', endedAt: new Date(), data: { output: 'redacted by the SDK' } },
      { ...base, ...usage, id: 'span_generation', type: 'generation', endedAt: new Date(), data: { input: ['second'], output: ['answer'] } },
    ]);
    const spans = (await repository.getTrace('trace_replace'))?.spans ?? [];
    expect(spans.find((span) => span.id === 'span_tool')?.data).toEqual({ output: 'redacted by the SDK' });
    expect(spans.find((span) => span.id === 'span_generation')?.data).toEqual({ input: ['second'], output: ['answer'] });
  });
});
