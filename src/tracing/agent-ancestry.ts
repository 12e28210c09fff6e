import type { Span, SpanData } from '@openai/agents';

/** Tracks which agent each open span runs under, and the session (group id) of each trace. */
export class AgentAncestry {
  private readonly agents = new Map<string, string | undefined>();
  private readonly sessions = new Map<string, { sessionId: string | null; spanIds: Set<string> }>();

  /** Remembers a trace's session. */
  traceStarted(traceId: string, groupId: string | null): void {
    this.sessions.set(traceId, { sessionId: groupId, spanIds: new Set() });
  }

  /** Forgets a trace and its spans. */
  traceEnded(traceId: string): void {
    for (const spanId of this.sessions.get(traceId)?.spanIds ?? []) this.agents.delete(spanId);
    this.sessions.delete(traceId);
  }

  /** Records a span: an agent (or turn) span names its agent; others inherit their parent's. */
  spanStarted(span: Span<SpanData>): void {
    const data = span.spanData;
    const inherited = span.parentId ? this.agents.get(span.parentId) : undefined;
    this.agents.set(span.spanId, data.type === 'agent' ? data.name : data.type === 'turn' ? data.agent_name : inherited);
    this.sessions.get(span.traceId)?.spanIds.add(span.spanId);
  }

  /** True when the span was seen starting. */
  knows(spanId: string): boolean {
    return this.agents.has(spanId);
  }

  /** The agent a span runs under. */
  agentOf(spanId: string): string | undefined {
    return this.agents.get(spanId);
  }

  /** The session of a span's trace (its group id), falling back to trace metadata. */
  sessionOf(span: Span<SpanData>): string | null {
    return this.sessions.get(span.traceId)?.sessionId ?? (span.traceMetadata?.sessionId as string | undefined) ?? null;
  }
}
