import { isDatabaseUnreachable } from '../core/database-unreachable.ts';
import type { Span, SpanData, Trace, TracingProcessor } from '@openai/agents';
import type { Logger } from '../logging/logger.ts';
import type { SpanRecord, TraceRecord, TracesRepository } from '../repositories/traces-repository.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { AgentAncestry } from './agent-ancestry.ts';
import { providerCost, type CostResolver, type CostSource } from '../core/cost.ts';
import { generationCall, markCutSpan, messageIdOf, sanitise, spanName, storedData } from './span-mapping.ts';

/** Options of the DB processor. */
export interface DbTracingProcessorOptions {
  /** Secret values to mask in every stored trace and span. */
  secrets?: readonly string[];
  /** This process's worker instance: a trace it leaves open when it dies is closed by the instance that reclaims its work. */
  workerId?: string;
  clock?: Clock;
  logger?: Logger;
  /** Delay before queued rows are written (a timer, never awaited by a turn). */
  flushDelayMs?: number;
  /** Most queued rows before a flush starts at once. */
  maxQueued?: number;
  /** Told which traces were just written (with their session), so open pages can refresh their usage. */
  onStored?: (stored: { traceId: string; sessionId: string | null }[]) => void;
  /** Told the usage of every model call that ended inside a session, with the agent that made it. */
  onGenerationUsage?: (usage: GenerationUsage) => void;
  /** Prices a generation whose provider sent no cost (absent: only the provider's cost counts). */
  prices?: CostResolver;
}

/** A span's tokens and cost, with the cost's source (null until a generation ends). */
interface SpanUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  costSource: CostSource | null;
}

/** A span waiting for the next write; its stored copy is made then, once, however often it was queued. */
interface QueuedSpan {
  span: Span<SpanData>;
  usage: SpanUsage;
  sessionId: string | null;
  agent: string | undefined;
  startedAt: Date;
  endedAt: Date | null;
}

/** A trace's extent so far; `start` is the injected clock's until a span is seen. */
interface TraceExtent {
  trace: Trace;
  start: Date;
  end: Date | null;
  spanSeen: boolean;
}

/** A trace waiting for the next write; its start is read from its extent then, so the write has the earliest span seen. */
interface QueuedTrace {
  extent: TraceExtent;
  endedAt: Date | null;
}

/** Most spans one statement writes (see `write`). */
export const SPANS_PER_STATEMENT = 25;
/** Spans kept for the next write while the database is unreachable (a few hundred turns' worth). */
const MAX_UNWRITTEN_SPANS = 5_000;

/** Tokens and cost of one model call of a session. */
export interface GenerationUsage {
  sessionId: string;
  agent: string | undefined;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  costSource: CostSource;
}

/**
 * Writes SDK traces and spans to the DB. Rows are queued and written in batches off the turn's path;
 * a span is written when it starts (so the viewer sees work in flight) and again when it ends.
 */
export class DbTracingProcessor implements TracingProcessor {
  /** Open traces and their extents: the SDK stamps spans with the wall clock, so a trace's start and end follow its spans. */
  private readonly extents = new Map<string, TraceExtent>();
  private readonly ancestry = new AgentAncestry();
  private queuedTraces = new Map<string, QueuedTrace>();
  private queuedSpans = new Map<string, QueuedSpan>();
  /**
   * Open spans whose stored row holds their input (a generation's whole conversation): their end is written without
   * it, and the row's data is merged (see `upsertSpans`). A model call spans several flushes, so its input was
   * copied, masked, serialised and written twice.
   */
  private readonly inputStored = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Records a write could not store while the database was away: written again, before the newer ones, next time. */
  private unwritten: { traces: TraceRecord[]; spans: SpanRecord[] } = { traces: [], spans: [] };
  private readonly secrets: readonly string[];
  private readonly clock: Clock;

  constructor(
    private readonly repository: TracesRepository,
    private readonly options: DbTracingProcessorOptions = {},
  ) {
    this.secrets = (options.secrets ?? []).filter((secret) => secret.length >= 4);
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Notes a trace; its group id is the session id. Its row is queued with its first span: written earlier, it would
   * carry the injected clock's start, and the stored start only moves earlier (see `upsertTraces`).
   */
  async onTraceStart(trace: Trace): Promise<void> {
    this.extents.set(trace.traceId, { trace, start: this.clock.now(), end: null, spanSeen: false });
    this.ancestry.traceStarted(trace.traceId, trace.groupId ?? null);
  }

  /** Marks a trace ended and forgets its bookkeeping. */
  async onTraceEnd(trace: Trace): Promise<void> {
    const extent = this.extents.get(trace.traceId) ?? { trace, start: this.clock.now(), end: null, spanSeen: false };
    this.queuedTraces.set(trace.traceId, { extent, endedAt: extent.end ?? this.clock.now() });
    this.scheduleFlush();
    this.ancestry.traceEnded(trace.traceId);
    this.extents.delete(trace.traceId);
  }

  /** Records a span as started, and its trace with the first. */
  async onSpanStart(span: Span<SpanData>): Promise<void> {
    this.ancestry.spanStarted(span);
    const extent = this.extents.get(span.traceId);
    if (extent && !extent.spanSeen) this.queuedTraces.set(span.traceId, { extent, endedAt: null });
    this.widenExtent(span);
    this.queueSpan(span, { inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: null });
  }

  /** Records a span as ended, with its output, error, tokens and cost. */
  async onSpanEnd(span: Span<SpanData>): Promise<void> {
    if (!this.ancestry.knows(span.spanId)) this.ancestry.spanStarted(span);
    markCutSpan(span);
    this.widenExtent(span);
    const usage = this.endedUsage(span.spanData);
    this.queueSpan(span, usage);
    this.reportUsage(span, usage);
  }

  /** An ended generation's tokens and cost: the provider's cost when sent, else priced by model. */
  private endedUsage(data: SpanData): SpanUsage {
    if (data.type !== 'generation') return { inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: null };
    const call = generationCall(data);
    const priced = this.options.prices?.costOf(data.model, call) ?? providerCost(call);
    return { inputTokens: call.inputTokens, outputTokens: call.outputTokens, ...priced };
  }

  /** Every model call counts toward its session, whichever agent made it (the Planner, the Moderator, the Scribe...). */
  private reportUsage(span: Span<SpanData>, usage: SpanUsage): void {
    if (span.spanData.type !== 'generation' || !this.options.onGenerationUsage || usage.costSource === null) return;
    const sessionId = this.ancestry.sessionOf(span);
    if (!sessionId || usage.inputTokens + usage.outputTokens + usage.costUsd === 0) return;
    this.options.onGenerationUsage({ sessionId, agent: this.ancestry.agentOf(span.spanId), ...usage, costSource: usage.costSource });
  }

  private widenExtent(span: Span<SpanData>): void {
    const extent = this.extents.get(span.traceId);
    if (!extent) return;
    const started = span.startedAt ? new Date(span.startedAt) : undefined;
    const ended = span.endedAt ? new Date(span.endedAt) : undefined;
    if (started && (!extent.spanSeen || started < extent.start)) extent.start = started;
    if (ended && (!extent.end || ended > extent.end)) extent.end = ended;
    extent.spanSeen = true;
  }

  /** Writes everything queued. */
  async forceFlush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const traces = [...this.unwritten.traces, ...[...this.queuedTraces.values()].map((queued) => this.traceRecord(queued))];
    const spans = [...this.unwritten.spans, ...[...this.queuedSpans.values()].map((queued) => this.spanRecord(queued))];
    this.unwritten = { traces: [], spans: [] };
    this.queuedTraces = new Map();
    this.queuedSpans = new Map();
    const write = this.flushing.then(() => this.write(traces, spans));
    this.flushing = write.catch(() => undefined);
    await write;
  }

  /** Flushes and stops. */
  async shutdown(): Promise<void> {
    await this.forceFlush();
  }

  private async write(traces: TraceRecord[], spans: SpanRecord[]): Promise<void> {
    try {
      await this.repository.upsertTraces(traces);
      // In statements of a few dozen rows: on embedded PGlite every statement waits for the one before it, and a turn's
      // next statement would wait behind a batch of 200 spans (~8 ms) instead of a slice of it (~1 ms).
      for (let first = 0; first < spans.length; first += SPANS_PER_STATEMENT) {
        const batch = spans.slice(first, first + SPANS_PER_STATEMENT);
        await this.repository.upsertSpans(batch);
        for (const span of batch) {
          if (span.endedAt !== null) this.inputStored.delete(span.id);
          else if ('input' in span.data) this.inputStored.add(span.id);
        }
      }
      this.announce(traces, spans);
    } catch (error) {
      // Kept for the next write while the database is away (upserts: a span written twice is written once), up to a
      // bound: an outage of many minutes loses the oldest turns' traces rather than the process's memory.
      if (isDatabaseUnreachable(error) && spans.length <= MAX_UNWRITTEN_SPANS) return void (this.unwritten = { traces, spans });
      this.options.logger?.error({ err: (error as Error).message, traces: traces.length, spans: spans.length }, 'could not store traces');
    }
  }

  private announce(traces: TraceRecord[], spans: SpanRecord[]): void {
    if (!this.options.onStored) return;
    const written = new Map<string, string | null>();
    for (const record of [
      ...traces.map((trace) => ({ traceId: trace.id, sessionId: trace.sessionId })),
      ...spans.map((span) => ({ traceId: span.traceId, sessionId: span.sessionId })),
    ]) {
      written.set(record.traceId, written.get(record.traceId) ?? record.sessionId);
    }
    if (written.size > 0) this.options.onStored([...written].map(([traceId, sessionId]) => ({ traceId, sessionId })));
  }

  private traceRecord({ extent: { trace, start }, endedAt }: QueuedTrace): TraceRecord {
    return {
      id: trace.traceId,
      sessionId: trace.groupId ?? null,
      name: trace.name,
      groupId: trace.groupId ?? null,
      metadata: (sanitise(trace.metadata ?? {}, this.secrets) ?? {}) as Record<string, unknown>,
      startedAt: start,
      endedAt,
      workerId: this.options.workerId ?? null,
    };
  }

  /**
   * Queues a span's row. Its data (a generation's whole input among it) is copied and masked at the write, not here:
   * a span that starts and ends between two writes, as most do, is copied once instead of twice.
   */
  private queueSpan(span: Span<SpanData>, usage: SpanUsage): void {
    this.queuedSpans.set(span.spanId, {
      span,
      usage,
      // Read now: the ancestry forgets a trace when it ends, which may be before the write.
      sessionId: this.ancestry.sessionOf(span),
      agent: this.ancestry.agentOf(span.spanId),
      startedAt: span.startedAt ? new Date(span.startedAt) : this.clock.now(),
      endedAt: span.endedAt ? new Date(span.endedAt) : null,
    });
    this.scheduleFlush();
  }

  private spanRecord({ span, usage, sessionId, agent, startedAt, endedAt }: QueuedSpan): SpanRecord {
    const data = span.spanData;
    return {
      id: span.spanId,
      traceId: span.traceId,
      parentId: span.parentId,
      sessionId,
      type: data.type,
      name: spanName(data),
      startedAt,
      endedAt,
      data: storedData(span, agent, this.secrets, endedAt !== null && this.inputStored.has(span.spanId)),
      error: span.error ? (sanitise(span.error, this.secrets) as Record<string, unknown>) : null,
      model: data.type === 'generation' ? (data.model ?? null) : null,
      ...usage,
      messageId: messageIdOf(data),
    };
  }

  private scheduleFlush(): void {
    if (this.queuedSpans.size + this.queuedTraces.size >= (this.options.maxQueued ?? 200)) {
      void this.forceFlush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => void this.forceFlush(), this.options.flushDelayMs ?? 250);
    this.timer.unref();
  }
}
