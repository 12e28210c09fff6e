/** Trace and span records as the trace viewer reads them, and the mapping from their rows. */
import type { SpanRow, TraceRow } from '../db/schema.ts';
import { isCostSource, type CostSource } from '../core/cost.ts';

/** A trace (one turn of a session) as stored. */
export interface TraceRecord {
  id: string;
  sessionId: string | null;
  name: string;
  groupId: string | null;
  metadata: Record<string, unknown>;
  startedAt: Date;
  endedAt: Date | null;
  /** The worker instance that wrote it (a trace it left open is closed once it is gone); absent when unknown. */
  workerId?: string | null;
}

/** A span as stored; `data.agent` names the agent it ran under. */
export interface SpanRecord {
  id: string;
  traceId: string;
  parentId: string | null;
  sessionId: string | null;
  type: string;
  name: string;
  startedAt: Date;
  endedAt: Date | null;
  data: Record<string, unknown>;
  error: Record<string, unknown> | null;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Where the cost came from; null (or absent) for spans other than ended generations. */
  costSource?: CostSource | null;
  messageId: number | null;
}

/** Tokens and cost added up. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** A trace in a listing, with its totals. */
export interface TraceSummary extends TraceRecord, UsageTotals {
  spanCount: number;
  errorCount: number;
  /** The extent of its spans (the SDK stamps them with the wall clock): the duration the trace view shows. */
  firstSpanAt: Date | null;
  lastSpanEnd: Date | null;
}

/** Totals of one agent (a participant or a role) in a session. */
export interface AgentTotals extends UsageTotals {
  agent: string;
  generations: number;
}

/** The cost of a session's model calls of one model from one source. */
export interface CostSourceTotals {
  model: string | null;
  costSource: CostSource | null;
  generations: number;
  costUsd: number;
}

/** Filters for `listTraces`. */
export interface TraceFilter {
  sessionId?: string;
  /** Matches the trace name or any span's name or data. */
  text?: string;
  agent?: string;
  model?: string;
  errorsOnly?: boolean;
  limit?: number;
  /** Only traces that started before this time (paging back). */
  before?: Date;
}

/** A trace row as a record. */
export function toTrace(row: TraceRow): TraceRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    name: row.name,
    groupId: row.group_id,
    metadata: row.metadata ?? {},
    startedAt: new Date(row.started_at),
    endedAt: row.ended_at ? new Date(row.ended_at) : null,
    workerId: row.worker_id,
  };
}

/** A span row as a record. */
export function toSpan(row: SpanRow): SpanRecord {
  return {
    id: row.id,
    traceId: row.trace_id,
    parentId: row.parent_id,
    sessionId: row.session_id,
    type: row.type,
    name: row.name,
    startedAt: new Date(row.started_at),
    endedAt: row.ended_at ? new Date(row.ended_at) : null,
    data: row.data ?? {},
    error: row.error ?? null,
    model: row.model,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costUsd: Number(row.cost_usd),
    costSource: isCostSource(row.cost_source) ? row.cost_source : null,
    messageId: row.message_id === null ? null : Number(row.message_id),
  };
}
