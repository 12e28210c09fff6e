import { setTraceProcessors, setTracingDisabled, type Span, type Trace, type TracingProcessor } from '@openai/agents';

/** A tracing processor that keeps every ended span and trace in memory, for assertions. */
export class SpanCollector implements TracingProcessor {
  readonly spans: Span<never>[] = [];
  readonly traces: Trace[] = [];

  async onTraceStart(): Promise<void> {}
  async onTraceEnd(trace: Trace): Promise<void> {
    this.traces.push(trace);
  }
  async onSpanStart(): Promise<void> {}
  async onSpanEnd(span: Span<never>): Promise<void> {
    this.spans.push(span);
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}

  /** Spans of one type, as plain JSON (what an exporter would see). */
  ofType(type: string): Record<string, unknown>[] {
    return this.spans
      .map((span) => span.toJSON() as Record<string, unknown>)
      .filter((json) => (json.span_data as { type?: string } | undefined)?.type === type);
  }

  /** Everything recorded, serialised, to assert a value never reached a trace. */
  serialised(): string {
    return JSON.stringify([...this.traces.map((trace) => trace.toJSON()), ...this.spans.map((span) => span.toJSON())]);
  }

  clear(): void {
    this.spans.length = 0;
    this.traces.length = 0;
  }
}

/** Installs a fresh collector as the only trace processor (tracing is off under NODE_ENV=test otherwise). */
export function installSpanCollector(): SpanCollector {
  const collector = new SpanCollector();
  setTraceProcessors([collector]);
  setTracingDisabled(false);
  return collector;
}
