import type { Span, SpanData, Trace, TracingProcessor } from '@openai/agents';
import type { Logger } from '../logging/logger.ts';
import { AgentAncestry } from './agent-ancestry.ts';
import { exportRequest, toOtlpSpan, type OtlpSpan } from './otlp-mapping.ts';

/** Options of the OTLP exporter. */
export interface OtlpTracingProcessorOptions {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  headers?: Record<string, string>;
  secrets?: readonly string[];
  serviceName?: string;
  logger?: Logger;
  fetch?: typeof globalThis.fetch;
  /** Spans per POST. */
  maxBatch?: number;
  /** Delay before a partial batch is sent (a timer, never awaited by a turn). */
  flushDelayMs?: number;
  timeoutMs?: number;
}

/** Exports ended spans as OTLP/HTTP JSON (Jaeger, Phoenix, Langfuse), with GenAI attributes and the session id. */
export class OtlpTracingProcessor implements TracingProcessor {
  private readonly ancestry = new AgentAncestry();
  private queue: OtlpSpan[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> = Promise.resolve();
  private readonly secrets: readonly string[];

  constructor(private readonly options: OtlpTracingProcessorOptions) {
    this.secrets = (options.secrets ?? []).filter((secret) => secret.length >= 4);
  }

  /** Remembers the trace's session. */
  async onTraceStart(trace: Trace): Promise<void> {
    this.ancestry.traceStarted(trace.traceId, trace.groupId ?? null);
  }

  /** Forgets the trace once its spans are queued. */
  async onTraceEnd(trace: Trace): Promise<void> {
    this.ancestry.traceEnded(trace.traceId);
  }

  /** Tracks agent ancestry. */
  async onSpanStart(span: Span<SpanData>): Promise<void> {
    this.ancestry.spanStarted(span);
  }

  /** Queues the ended span for export. */
  async onSpanEnd(span: Span<SpanData>): Promise<void> {
    if (!this.ancestry.knows(span.spanId)) this.ancestry.spanStarted(span);
    this.queue.push(toOtlpSpan(span, { sessionId: this.ancestry.sessionOf(span), agent: this.ancestry.agentOf(span.spanId), secrets: this.secrets }));
    if (this.queue.length >= (this.options.maxBatch ?? 64)) void this.forceFlush();
    else this.schedule();
  }

  /** Sends everything queued. */
  async forceFlush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    const send = this.sending.then(() => (batch.length > 0 ? this.send(batch) : undefined));
    this.sending = send.catch(() => undefined);
    await send;
  }

  /** Flushes and stops. */
  async shutdown(): Promise<void> {
    await this.forceFlush();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.forceFlush(), this.options.flushDelayMs ?? 1000);
    this.timer.unref();
  }

  private async send(spans: OtlpSpan[]): Promise<void> {
    const fetchImplementation = this.options.fetch ?? globalThis.fetch;
    const url = `${this.options.endpoint.replace(/\/$/, '')}/v1/traces`;
    try {
      const response = await fetchImplementation(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.options.headers },
        body: JSON.stringify(exportRequest(spans, this.options.serviceName ?? 'brainstorm')),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    } catch (error) {
      this.options.logger?.warn({ err: (error as Error).message, spans: spans.length }, 'OTLP export failed; spans dropped');
    }
  }
}
