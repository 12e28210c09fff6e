/** An in-memory TraceStore for console tests and the bench (the same contract as the traces repository). */
import type { TraceListRecord, TraceStore } from '../../../../src/services/console/console-queries.ts';
import type { SpanRecord, TraceRecord } from '../../../../src/services/console/trace-view-model.ts';

/** Traces and spans kept in maps; search matches the way the repository documents it. */
export class MemoryTraceStore implements TraceStore {
  private readonly traces = new Map<string, TraceRecord>();
  private readonly spans = new Map<string, SpanRecord[]>();

  /** Stores a trace with its spans. */
  put(trace: TraceRecord, spans: SpanRecord[]): void {
    this.traces.set(trace.id, trace);
    this.spans.set(trace.id, spans);
  }

  async listTraces(filter: Parameters<TraceStore['listTraces']>[0]): Promise<TraceListRecord[]> {
    const matches = [...this.traces.values()].filter((trace) => {
      const spans = this.spans.get(trace.id) ?? [];
      if (filter.sessionId && trace.sessionId !== filter.sessionId) return false;
      if (filter.agent && !spans.some((span) => span.type === 'agent' && span.name.toLowerCase().includes((filter.agent as string).toLowerCase()))) return false;
      if (filter.model && !spans.some((span) => (span.model ?? '').includes(filter.model as string))) return false;
      if (filter.errorsOnly && !spans.some((span) => span.error)) return false;
      if (filter.text && !JSON.stringify({ trace, spans }).toLowerCase().includes(filter.text.toLowerCase())) return false;
      return true;
    });
    return matches
      .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())
      .slice(0, filter.limit)
      .map((trace) => {
        const spans = this.spans.get(trace.id) ?? [];
        const generations = spans.filter((span) => span.type === 'generation');
        return {
          ...trace,
          spanCount: spans.length,
          errorCount: spans.filter((span) => span.error).length,
          inputTokens: generations.reduce((sum, span) => sum + span.inputTokens, 0),
          outputTokens: generations.reduce((sum, span) => sum + span.outputTokens, 0),
          costUsd: generations.reduce((sum, span) => sum + span.costUsd, 0),
        };
      });
  }

  async getTrace(id: string): Promise<{ trace: TraceRecord; spans: SpanRecord[] } | null> {
    const trace = this.traces.get(id);
    return trace ? { trace, spans: this.spans.get(id) ?? [] } : null;
  }
}

/** A span with defaults, for building traces in tests. */
export function span(fields: Partial<SpanRecord> & Pick<SpanRecord, 'id' | 'traceId' | 'type' | 'name' | 'startedAt'>): SpanRecord {
  return { parentId: null, endedAt: null, data: {}, error: null, model: null, inputTokens: 0, outputTokens: 0, costUsd: 0, messageId: null, ...fields };
}
