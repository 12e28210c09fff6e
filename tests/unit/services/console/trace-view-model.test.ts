import { describe, expect, it } from 'vitest';
import { buildTraceDetail, type SpanRecord, type TraceRecord } from '../../../../src/services/console/trace-view-model.ts';

const base = Date.parse('2026-01-01T00:00:00.000Z');
const at = (milliseconds: number) => new Date(base + milliseconds);

function span(id: string, type: string, name: string, start: number, end: number | null, fields: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id,
    traceId: 't',
    parentId: null,
    sessionId: 's',
    type,
    name,
    startedAt: at(start),
    endedAt: end === null ? null : at(end),
    data: {},
    error: null,
    model: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    messageId: null,
    ...fields,
  };
}

const trace: TraceRecord = { id: 't', sessionId: 's', name: 'Turn 1', groupId: 's', metadata: {}, startedAt: at(0), endedAt: at(1000) };

describe('buildTraceDetail', () => {
  const spans = [
    span('g2', 'generation', 'generation', 620, 900, { parentId: 'a2', model: 'x-ai/grok-4', inputTokens: 50, outputTokens: 5, costUsd: 0.5 }),
    span('a1', 'agent', 'Planner', 0, 500, { data: { name: 'Planner' } }),
    span('g1', 'generation', 'generation', 10, 300, { parentId: 'a1', model: 'anthropic/claude', inputTokens: 100, outputTokens: 20, costUsd: 0.25 }),
    span('h1', 'handoff', 'handoff', 310, 311, { parentId: 'a1', data: { from_agent: 'Planner', to_agent: 'Moderator' } }),
    span('a2', 'agent', 'Moderator', 600, null),
    span('f1', 'function', 'check_limits', 901, 950, { parentId: 'a2', error: { message: 'limit store down', data: { code: 503 } } }),
    span('x1', 'guardrail', 'no_mentions', 960, 970, { parentId: 'missing-parent', data: { name: 'no_mentions', triggered: true, agent: 'Moderator' } }),
  ];
  const detail = buildTraceDetail(trace, spans, [
    { id: 7, sessionId: 's', speakerName: 'Moderator', traceId: 't', externalUrl: 'https://discord.com/channels/1/2/3' },
    { id: 8, sessionId: 's', speakerName: 'Claude', traceId: 'another', externalUrl: null },
  ]);

  it('orders spans depth-first by start time with depths; a span whose parent is unknown becomes a root', () => {
    expect(detail.spans.map((view) => `${view.id}@${view.depth}`)).toEqual(['a1@0', 'g1@1', 'h1@1', 'a2@0', 'g2@1', 'f1@1', 'x1@0']);
  });

  it('gives offsets and durations from the trace start; a running span has no duration', () => {
    const byId = new Map(detail.spans.map((view) => [view.id, view]));
    expect([byId.get('g2')?.startOffsetMs, byId.get('g2')?.durationMs, byId.get('a2')?.durationMs]).toEqual([620, 280, null]);
    expect(detail.trace.durationMs).toBe(1000);
  });

  it("names each span's agent, reads handoffs, guardrail trips and errors", () => {
    const byId = new Map(detail.spans.map((view) => [view.id, view]));
    expect(byId.get('g1')?.agentName).toBe('Planner');
    expect(byId.get('x1')?.agentName).toBe('Moderator');
    expect(byId.get('h1')?.handoff).toEqual({ from: 'Planner', to: 'Moderator' });
    expect(byId.get('x1')?.guardrail).toEqual({ name: 'no_mentions', triggered: true });
    expect(byId.get('f1')?.error).toEqual({ message: 'limit store down', data: { code: 503 } });
    expect(detail.totals).toMatchObject({ spanCount: 7, errorCount: 1, guardrailTrips: 1, inputTokens: 150, outputTokens: 25, costUsd: 0.75 });
  });

  it("shows a person's cut as cut short, not as an error, and counts it apart", () => {
    const cutShort = { message: 'cut short', data: { status: 'cut', reason: 'preempted' } };
    const cut = buildTraceDetail(
      trace,
      [span('a1', 'agent', 'Claude', 0, 500, { error: cutShort }), span('g1', 'generation', 'generation', 10, 300, { parentId: 'a1', error: cutShort })],
      [],
    );
    expect(cut.spans.map((view) => [view.error, view.cut])).toEqual([
      [null, 'preempted'],
      [null, 'preempted'],
    ]);
    expect(cut.totals).toMatchObject({ errorCount: 0, cutCount: 2 });
  });

  it("links a message of the trace to its speaker's last generation when no span names it", () => {
    const linked = detail.spans.filter((view) => view.message);
    expect(linked.map((view) => [view.id, view.message?.id, view.message?.externalUrl])).toEqual([['g2', 7, 'https://discord.com/channels/1/2/3']]);
  });

  it("prefers the span's own message id", () => {
    const own = buildTraceDetail(
      trace,
      [span('g', 'generation', 'generation', 0, 1, { messageId: 8 })],
      [{ id: 8, sessionId: 's', speakerName: 'Claude', traceId: null, externalUrl: null }],
    );
    expect(own.spans[0]?.message?.id).toBe(8);
  });

  it('links the generation too when only a delivery span names the message', () => {
    const view = buildTraceDetail(
      trace,
      [
        span('a', 'agent', 'Grok', 0, 10),
        span('g', 'generation', 'generation', 1, 5, { parentId: 'a' }),
        span('d', 'custom', 'deliver_message', 6, 9, { messageId: 9 }),
      ],
      [{ id: 9, sessionId: 's', speakerName: 'Grok', traceId: 't', externalUrl: null }],
    );
    expect(view.spans.filter((entry) => entry.message?.id === 9).map((entry) => entry.id)).toEqual(['g', 'd']);
  });

  it('adds up tokens and cost per participant from generation spans', () => {
    expect(detail.participants.map((entry) => [entry.name, entry.inputTokens, entry.generations])).toEqual([
      ['Planner', 100, 1],
      ['Moderator', 50, 1],
    ]);
  });

  it('handles 500 spans nested 500 deep without recursion limits', () => {
    const deep = Array.from({ length: 500 }, (_, index) =>
      span(`s${index}`, 'custom', 'step', index, index + 1, { parentId: index === 0 ? null : `s${index - 1}` }),
    );
    const view = buildTraceDetail(trace, deep, []);
    expect(view.spans.at(-1)?.depth).toBe(499);
  });
});
