import type { Span, SpanData, Trace, TracingProcessor } from '@openai/agents';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from '../logging/logger.ts';
import { AgentAncestry } from './agent-ancestry.ts';
import type { OtelPipeline } from './otel-pipeline.ts';
import { markCutSpan } from './span-mapping.ts';
import { ToolCallIds } from './tool-call-ids.ts';

/** Options of the OTLP export. */
export interface OtlpTracingProcessorOptions {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** `OTEL_EXPORTER_OTLP_HEADERS`, e.g. a collector's API key. */
  headers?: Record<string, string>;
  secrets?: readonly string[];
  serviceName?: string;
  logger?: Logger;
  /** Spans per export request. */
  maxBatch?: number;
  /** Delay before a partial batch is exported (the SDK's timer, never awaited by a turn). */
  flushDelayMs?: number;
  timeoutMs?: number;
  /** Replaces the OTLP/HTTP exporter (tests: the SDK's `InMemorySpanExporter`). */
  exporter?: SpanExporter;
}

/**
 * An Agents SDK processor that turns every ended SDK span into an OpenTelemetry span (original ids, parent,
 * times; GenAI attribute names; the session as conversation id) and lets the OTel SDK batch and export it
 * over OTLP/HTTP JSON to Jaeger, Phoenix or Langfuse.
 */
export class OtlpTracingProcessor implements TracingProcessor {
  private readonly ancestry = new AgentAncestry();
  private readonly toolCalls = new ToolCallIds();
  private readonly secrets: readonly string[];
  private readonly logger: Logger | undefined;
  /** The OTel SDK is loaded on first use of this processor only: a start without an endpoint never pays for it. */
  private readonly pipeline: Promise<OtelPipeline>;
  private recorded: Promise<void> = Promise.resolve();

  constructor(options: OtlpTracingProcessorOptions) {
    this.secrets = (options.secrets ?? []).filter((secret) => secret.length >= 4);
    this.logger = options.logger;
    this.pipeline = import('./otel-pipeline.ts').then(({ OtelPipeline }) => new OtelPipeline({ ...options, secrets: this.secrets }));
  }

  /** Remembers the trace's session. */
  async onTraceStart(trace: Trace): Promise<void> {
    this.ancestry.traceStarted(trace.traceId, trace.groupId ?? null);
  }

  /** Forgets the trace once its spans are recorded. */
  async onTraceEnd(trace: Trace): Promise<void> {
    this.ancestry.traceEnded(trace.traceId);
    this.toolCalls.traceEnded(trace.traceId);
  }

  /** Tracks agent ancestry. */
  async onSpanStart(span: Span<SpanData>): Promise<void> {
    this.ancestry.spanStarted(span);
  }

  /** Hands the ended span to the OTel SDK, which batches and exports it. */
  async onSpanEnd(span: Span<SpanData>): Promise<void> {
    if (!this.ancestry.knows(span.spanId)) this.ancestry.spanStarted(span);
    // Read here, inside the turn's scope (the mapping runs later); the trace store's processor marks it the same way.
    markCutSpan(span);
    // What the span needs from its trace is read now: the trace may end before the SDK is loaded.
    const info = {
      sessionId: this.ancestry.sessionOf(span),
      agent: this.ancestry.agentOf(span.spanId),
      toolCallId: this.toolCalls.spanEnded(span),
      secrets: this.secrets,
    };
    const task = Promise.all([import('./otlp-mapping.ts'), this.pipeline])
      .then(([{ toOtelSpan }, pipeline]) => pipeline.record(toOtelSpan(span, info)))
      .catch((error: unknown) => this.logger?.warn({ err: (error as Error).message }, 'OTLP export: span not recorded'));
    this.recorded = this.recorded.then(() => task);
    await task;
  }

  /** Exports everything recorded so far; a failed export is logged, never thrown at the caller. */
  async forceFlush(): Promise<void> {
    await this.recorded;
    await this.pipeline.then((pipeline) => pipeline.forceFlush()).catch(() => undefined);
  }

  /** Exports what is left and stops the exporter. */
  async shutdown(): Promise<void> {
    await this.recorded;
    await this.pipeline.then((pipeline) => pipeline.shutdown()).catch(() => undefined);
  }
}
