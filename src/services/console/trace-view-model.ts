/** Turns stored traces and spans into the waterfall the console draws: tree order, offsets, links, totals. */
import type { SpanRecord, TraceRecord } from '../../repositories/traces-repository.ts';
import { cutReasonOf } from '../../core/turn-scope.ts';
import type { ParticipantTotals, SpanKind, SpanView, TraceDetail, UsageTotals } from './console-types.ts';

export type { SpanRecord, TraceRecord };

/** A message a span may link to. */
export interface LinkableMessage {
  id: number;
  sessionId: string;
  speakerName: string;
  traceId: string | null;
  externalUrl: string | null;
}

const SPAN_KINDS: readonly SpanKind[] = ['agent', 'generation', 'function', 'handoff', 'guardrail', 'custom', 'task', 'turn'];

function kindOf(type: string): SpanKind {
  return (SPAN_KINDS as readonly string[]).includes(type) ? (type as SpanKind) : 'other';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Orders spans depth-first (children by start time) and gives each its depth; orphans become roots. */
function treeOrder(spans: SpanRecord[]): { span: SpanRecord; depth: number }[] {
  const known = new Set(spans.map((span) => span.id));
  const children = new Map<string | null, SpanRecord[]>();
  for (const span of spans) {
    const parent = span.parentId && known.has(span.parentId) ? span.parentId : null;
    const siblings = children.get(parent) ?? [];
    siblings.push(span);
    children.set(parent, siblings);
  }
  for (const siblings of children.values()) siblings.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
  const ordered: { span: SpanRecord; depth: number }[] = [];
  // An explicit stack: a 500-span trace may nest deeply, and recursion is not needed.
  const stack: { span: SpanRecord; depth: number }[] = (children.get(null) ?? []).map((span) => ({ span, depth: 0 })).reverse();
  while (stack.length > 0) {
    const entry = stack.pop() as { span: SpanRecord; depth: number };
    ordered.push(entry);
    const below = children.get(entry.span.id) ?? [];
    for (let index = below.length - 1; index >= 0; index -= 1) stack.push({ span: below[index] as SpanRecord, depth: entry.depth + 1 });
  }
  return ordered;
}

function withoutPayload(data: Record<string, unknown>): Record<string, unknown> {
  const { input: _input, output: _output, ...rest } = data;
  return rest;
}

function describeError(error: Record<string, unknown> | null): SpanView['error'] {
  if (!error || cutReasonOf(error) !== null) return null;
  return { message: text(error.message) ?? 'error', data: error.data ?? null };
}

function toSpanView(span: SpanRecord, depth: number, origin: number, agentName: string | null): SpanView {
  const data = span.data ?? {};
  const kind = kindOf(span.type);
  const end = span.endedAt?.getTime();
  return {
    id: span.id,
    parentId: span.parentId,
    kind,
    name: span.name,
    depth,
    startOffsetMs: span.startedAt.getTime() - origin,
    durationMs: end === undefined ? null : end - span.startedAt.getTime(),
    agentName,
    model: span.model ?? text(data.model),
    inputTokens: span.inputTokens,
    outputTokens: span.outputTokens,
    costUsd: span.costUsd,
    costSource: span.costSource ?? null,
    input: data.input ?? null,
    output: data.output ?? null,
    hasPayload: data.input !== undefined || data.output !== undefined,
    error: describeError(span.error),
    cut: cutReasonOf(span.error),
    handoff: kind === 'handoff' ? { from: text(data.from_agent) ?? text(data.fromAgent), to: text(data.to_agent) ?? text(data.toAgent) } : null,
    guardrail: kind === 'guardrail' ? { name: text(data.name) ?? span.name, triggered: data.triggered === true } : null,
    // Input and output are given once, above; the raw data keeps everything else.
    data: withoutPayload(data),
    message: null,
  };
}

/** Links spans to messages: by the span's own `messageId`, and each message of the trace to its speaker's last generation. */
function linkMessages(views: SpanView[], spans: SpanRecord[], messages: LinkableMessage[]): void {
  const byId = new Map(messages.map((message) => [message.id, message]));
  // Messages whose generation is already known; a delivery span naming a message does not count.
  const generated = new Set<number>();
  spans.forEach((span, index) => {
    const message = span.messageId === null ? undefined : byId.get(span.messageId);
    const view = views[index] as SpanView;
    if (!message) return;
    view.message = { id: message.id, sessionId: message.sessionId, externalUrl: message.externalUrl, speakerName: message.speakerName };
    if (view.kind === 'generation') generated.add(message.id);
  });
  for (const message of messages) {
    if (generated.has(message.id)) continue;
    const producer = [...views].reverse().find((view) => view.kind === 'generation' && view.agentName === message.speakerName && view.message === null);
    if (producer) producer.message = { id: message.id, sessionId: message.sessionId, externalUrl: message.externalUrl, speakerName: message.speakerName };
  }
}

function addUsage(target: UsageTotals, span: UsageTotals): void {
  target.inputTokens += span.inputTokens;
  target.outputTokens += span.outputTokens;
  target.costUsd += span.costUsd;
}

function participantTotals(views: SpanView[]): ParticipantTotals[] {
  const totals = new Map<string, ParticipantTotals>();
  for (const view of views) {
    if (view.kind !== 'generation') continue;
    const name = view.agentName ?? 'unknown';
    const entry = totals.get(name) ?? { name, inputTokens: 0, outputTokens: 0, costUsd: 0, generations: 0 };
    addUsage(entry, view);
    entry.generations += 1;
    totals.set(name, entry);
  }
  return [...totals.values()].sort((a, b) => b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens));
}

/** Builds the viewer's model of one trace in one pass over its spans. */
export function buildTraceDetail(trace: TraceRecord, spans: SpanRecord[], messages: LinkableMessage[]): TraceDetail {
  const ordered = treeOrder(spans);
  const origin = Math.min(trace.startedAt.getTime(), ...spans.map((span) => span.startedAt.getTime()));
  const agentOf = new Map<string, string | null>();
  const views = ordered.map(({ span, depth }) => {
    const inherited = span.parentId ? (agentOf.get(span.parentId) ?? null) : null;
    // The tracing processor may name the agent on every span (`data.agent`); otherwise it is inherited.
    const agentName = span.type === 'agent' ? (text(span.data?.name) ?? span.name) : (text(span.data?.agent) ?? inherited);
    agentOf.set(span.id, agentName);
    return toSpanView(span, depth, origin, agentName);
  });
  linkMessages(
    views,
    ordered.map((entry) => entry.span),
    messages.filter((message) => message.traceId === trace.id || spans.some((span) => span.messageId === message.id)),
  );
  const totals = { inputTokens: 0, outputTokens: 0, costUsd: 0, spanCount: views.length, errorCount: 0, cutCount: 0, guardrailTrips: 0 };
  let latestEnd = trace.endedAt?.getTime() ?? origin;
  for (const view of views) {
    if (view.kind === 'generation') addUsage(totals, view);
    if (view.error) totals.errorCount += 1;
    if (view.cut) totals.cutCount += 1;
    if (view.guardrail?.triggered) totals.guardrailTrips += 1;
    latestEnd = Math.max(latestEnd, origin + view.startOffsetMs + (view.durationMs ?? 0));
  }
  return {
    trace: {
      id: trace.id,
      sessionId: trace.sessionId,
      name: trace.name,
      groupId: trace.groupId,
      metadata: trace.metadata ?? {},
      startedAt: trace.startedAt.toISOString(),
      endedAt: trace.endedAt?.toISOString() ?? null,
      durationMs: latestEnd - origin,
    },
    spans: views,
    totals,
    participants: participantTotals(views),
  };
}
