import { createCustomSpan, createGenerationSpan, getGlobalTraceProvider, type TracingProcessor } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import type { SpanRecord, TraceRecord, TracesRepository } from '../../../src/repositories/traces-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { DatabaseUnreachableError } from '../../../src/core/database-unreachable.ts';
import { DbTracingProcessor, SPANS_PER_STATEMENT, type GenerationUsage } from '../../../src/tracing/db-tracing-processor.ts';
import { parseModelsList } from '../../../src/agents/models/model-listing.ts';
import { PriceTable } from '../../../src/agents/models/price-table.ts';
import { installTracing } from '../../../src/tracing/install-tracing.ts';
import { generationUsage, messageIdOf, sanitise } from '../../../src/tracing/span-mapping.ts';

/** Collects what the processor writes; can be told to fail. */
class MemoryTraces {
  traces: TraceRecord[] = [];
  spans: SpanRecord[] = [];
  failing = false;
  /** Fails as an unreachable database server does. */
  away = false;
  async upsertTraces(traces: TraceRecord[]): Promise<void> {
    if (this.failing) throw new Error('db down');
    if (this.away) throw new DatabaseUnreachableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
    this.traces.push(...traces);
  }
  async upsertSpans(spans: SpanRecord[]): Promise<void> {
    this.spans.push(...spans);
  }
}

function processorWith(store: MemoryTraces): DbTracingProcessor {
  return new DbTracingProcessor(store as unknown as TracesRepository, {
    secrets: ['hunter2-secret'],
    clock: new ManualClock(),
    flushDelayMs: 60_000,
    workerId: 'worker_this',
  });
}

describe('span mapping', () => {
  it('masks secrets deep inside data and cuts very long strings', () => {
    const copy = sanitise({ a: ['key hunter2-secret here', { b: 'hunter2-secret' }], long: 'x'.repeat(9000), fn: () => 1 }, ['hunter2-secret']) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(copy)).not.toContain('hunter2-secret');
    expect(String(copy.long)).toContain('[1000 more characters]');
    expect('fn' in copy).toBe(false);
  });

  it('takes generation usage from span usage (streamed) or the raw response (cost included)', () => {
    expect(generationUsage({ type: 'generation', usage: { input_tokens: 5, output_tokens: 2, details: { cost: 0.01 } } })).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      costUsd: 0.01,
    });
    expect(generationUsage({ type: 'generation', output: [{ usage: { prompt_tokens: 7, completion_tokens: 3, cost: 0.02 } }] })).toEqual({
      inputTokens: 7,
      outputTokens: 3,
      costUsd: 0.02,
    });
    expect(messageIdOf({ type: 'custom', name: 'deliver_message', data: { messageId: 12 } })).toBe(12);
    expect(messageIdOf({ type: 'custom', name: 'other', data: {} })).toBeNull();
  });
});

describe('DbTracingProcessor', () => {
  it('queues rows until flushed, keeps one row per span, and survives a failing store', async () => {
    const store = new MemoryTraces();
    const processor: TracingProcessor = processorWith(store);
    installTracing([processor]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'turn', groupId: 'ses_9' });
    await trace.start();
    const generation = createGenerationSpan({ data: { model: 'm' } }, trace);
    generation.start();
    generation.spanData.usage = { input_tokens: 3, output_tokens: 4, details: { cost: 0.5 } };
    generation.end();
    const custom = createCustomSpan({ data: { name: 'deliver_message', data: { messageId: 7, note: 'hunter2-secret' } } }, trace);
    custom.start();
    custom.end();
    await trace.end();
    expect(store.spans).toHaveLength(0);

    await processor.forceFlush();
    // Stamped with the process that wrote it: if this process dies, the one that reclaims its work closes the trace.
    expect(store.traces).toEqual([expect.objectContaining({ name: 'turn', sessionId: 'ses_9', workerId: 'worker_this' })]);
    expect(store.spans).toHaveLength(2);
    expect(store.spans[0]).toMatchObject({ type: 'generation', model: 'm', inputTokens: 3, outputTokens: 4, costUsd: 0.5, sessionId: 'ses_9' });
    expect(store.spans[1]).toMatchObject({ type: 'custom', messageId: 7 });
    expect(JSON.stringify(store.spans)).not.toContain('hunter2-secret');

    store.failing = true;
    const second = getGlobalTraceProvider().createTrace({ name: 'lost', groupId: 'ses_9' });
    await second.start();
    createCustomSpan({ data: { name: 'step', data: {} } }, second).start();
    await expect(processor.forceFlush()).resolves.toBeUndefined();
  });

  it('prices a generation whose provider sent no cost, stores the source and counts it toward the session', async () => {
    const store = new MemoryTraces();
    const reported: GenerationUsage[] = [];
    const listing = parseModelsList({ data: [{ id: 'openai/gpt-4o', pricing: { prompt: '0.0000025', completion: '0.00001' } }] });
    const prices = new PriceTable({ listing: { current: () => listing }, configured: {}, localModels: new Set() });
    const processor = new DbTracingProcessor(store as unknown as TracesRepository, {
      clock: new ManualClock(),
      flushDelayMs: 60_000,
      prices,
      onGenerationUsage: (usage) => reported.push(usage),
    });
    installTracing([processor]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'scribe', groupId: 'ses_price' });
    await trace.start();
    const calls: Array<[model: string, usage: Record<string, unknown>]> = [
      ['gpt-4o', { input_tokens: 1000, output_tokens: 100 }],
      ['openai/gpt-4o', { input_tokens: 10, output_tokens: 10, details: { cost: 0.25 } }],
      ['llama3.1', { input_tokens: 50, output_tokens: 5 }],
    ];
    for (const [model, usage] of calls) {
      const generation = createGenerationSpan({ data: { model } }, trace);
      generation.start();
      generation.spanData.usage = usage;
      generation.end();
    }
    await trace.end();
    await processor.forceFlush();
    const ended = store.spans.filter((span) => span.type === 'generation' && span.costSource);
    expect(ended.map((span) => [span.model, span.costUsd, span.costSource])).toEqual([
      ['gpt-4o', 0.0035, 'price_table'],
      ['openai/gpt-4o', 0.25, 'provider'],
      ['llama3.1', 0, 'unknown'],
    ]);
    expect(reported.map((usage) => [usage.sessionId, usage.costUsd, usage.costSource])).toEqual([
      ['ses_price', 0.0035, 'price_table'],
      ['ses_price', 0.25, 'provider'],
      ['ses_price', 0, 'unknown'],
    ]);
  });

  it('keeps what it could not write while the database was away, and writes it with the next flush', async () => {
    const store = new MemoryTraces();
    const processor = processorWith(store);
    installTracing([processor]);
    const during = getGlobalTraceProvider().createTrace({ name: 'turn during the outage', groupId: 'ses_9' });
    await during.start();
    const span = createCustomSpan({ data: { name: 'answer', data: {} } }, during);
    span.start();
    span.end();
    store.away = true;
    await processor.forceFlush();
    expect(store.spans).toEqual([]);
    store.away = false;
    const after = getGlobalTraceProvider().createTrace({ name: 'turn after it', groupId: 'ses_9' });
    await after.start();
    await after.end();
    await processor.forceFlush();
    expect(store.traces.map((trace) => trace.name)).toEqual(['turn during the outage', 'turn after it']);
    expect(store.spans.map((stored) => stored.name)).toEqual(['answer']);
  });

  it('writes a large flush in statements of at most SPANS_PER_STATEMENT spans, every span once', async () => {
    const store = new MemoryTraces();
    const batches: number[] = [];
    const upsert = store.upsertSpans.bind(store);
    store.upsertSpans = async (spans) => {
      batches.push(spans.length);
      await upsert(spans);
    };
    const processor = new DbTracingProcessor(store as unknown as TracesRepository, { clock: new ManualClock(), flushDelayMs: 60_000, maxQueued: 10_000 });
    installTracing([processor]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'turn', groupId: 'ses_9' });
    await trace.start();
    const count = SPANS_PER_STATEMENT * 2 + 3;
    for (let index = 0; index < count; index += 1) {
      const span = createCustomSpan({ data: { name: `step ${index}`, data: {} } }, trace);
      span.start();
      span.end();
    }
    await processor.forceFlush();
    expect(batches).toEqual([SPANS_PER_STATEMENT, SPANS_PER_STATEMENT, 3]);
    expect(new Set(store.spans.map((span) => span.name)).size).toBe(count);
  });

  it("stores a trace's start as its first span's, whenever a flush comes, whatever clock is injected", async () => {
    const store = new MemoryTraces();
    const processor = processorWith(store);
    installTracing([processor]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'slow turn', groupId: 'ses_9' });
    await trace.start();
    // The flush timer may fire before the run's first span starts, and again while it runs.
    await processor.forceFlush();
    const span = createCustomSpan({ data: { name: 'step', data: {} } }, trace);
    span.start();
    await processor.forceFlush();
    span.end();
    await trace.end();
    await processor.forceFlush();
    const spanStart = new Date(span.startedAt ?? 0).getTime();
    expect(store.traces.map((stored) => stored.startedAt.getTime())).toEqual([spanStart, spanStart]);
    expect(store.traces.at(-1)?.endedAt?.getTime()).toBe(new Date(span.endedAt ?? 0).getTime());
  });
});
