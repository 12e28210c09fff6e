import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { toJson, type Database } from '../db/schema.ts';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { isCostSource } from '../core/cost.ts';
import { CUT_SPAN_STATUS } from '../core/turn-scope.ts';
import {
  toSpan,
  toTrace,
  type AgentTotals,
  type CostSourceTotals,
  type SpanRecord,
  type TraceFilter,
  type TraceRecord,
  type TraceSummary,
  type UsageTotals,
} from './trace-records.ts';

/** A span that failed: it has an error, and not the mark of a turn a person cut (`!stop`, speaking first), which is no fault. */
const SPAN_FAILED = sql<SqlBool>`spans.error is not null and spans.error <> 'null'::jsonb and coalesce(spans.error->'data'->>'status', '') <> ${sql.lit(CUT_SPAN_STATUS)}`;

export type { AgentTotals, CostSourceTotals, SpanRecord, TraceFilter, TraceRecord, TraceSummary, UsageTotals } from './trace-records.ts';

/** The spans' columns, as a JSON batch unpacks into them (see `upsertSpans`). */
const SPAN_COLUMNS =
  'id text, trace_id text, parent_id text, session_id text, type text, name text, started_at timestamptz, ended_at timestamptz, ' +
  'data jsonb, error jsonb, model text, input_tokens integer, output_tokens integer, cost_usd double precision, cost_source text, message_id bigint';
const SPAN_NAMES = SPAN_COLUMNS.split(', ')
  .map((column) => column.split(' ')[0])
  .join(', ');

/**
 * Spans from a JSON array of rows, inserted or, when written before, given their newer contents. Data is merged key
 * by key: a span's end may leave out what its start wrote (a generation's input, see DbTracingProcessor).
 */
const UPSERT_SPANS = new PreparedStatement(
  'upsert spans',
  (db: Kysely<Database>, rows: string) => ({
    compile: () =>
      sql`insert into spans (${sql.raw(SPAN_NAMES)})
      select ${sql.raw(SPAN_NAMES)} from jsonb_to_recordset(${rows}::jsonb) as batch(${sql.raw(SPAN_COLUMNS)})
      on conflict (id) do update set name = excluded.name, ended_at = excluded.ended_at, data = spans.data || excluded.data,
        error = excluded.error, model = excluded.model, input_tokens = excluded.input_tokens,
        output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, cost_source = excluded.cost_source,
        message_id = coalesce(excluded.message_id, spans.message_id)`.compile(db),
  }),
  (rows) => [rows],
);

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

type TraceScope = ExpressionBuilder<Database, 'traces'>;

/** Traces and spans of agent runs (the trace viewer's store). */
export class TracesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts traces or updates them (name, metadata, end) when they exist. */
  async upsertTraces(traces: TraceRecord[]): Promise<void> {
    if (traces.length === 0) return;
    const rows = traces.map((trace) => ({
      id: trace.id,
      session_id: trace.sessionId,
      name: trace.name,
      group_id: trace.groupId,
      metadata: toJson(trace.metadata),
      started_at: trace.startedAt,
      ended_at: trace.endedAt,
      worker_id: trace.workerId ?? null,
    }));
    await this.db
      .insertInto('traces')
      .values(rows)
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet((eb) => ({
          // A trace keeps its first name (a resumed run would otherwise rename "Planner" to the workflow's name) and
          // its widest extent (a trace several runs add to, such as a session's human-message checks).
          name: sql<string>`traces.name`,
          metadata: eb.ref('excluded.metadata'),
          started_at: sql<Date>`least(excluded.started_at, traces.started_at)`,
          session_id: sql<string | null>`coalesce(excluded.session_id, traces.session_id)`,
          ended_at: sql<Date | null>`greatest(excluded.ended_at, traces.ended_at)`,
          // The last writer answers for it: a trace another process adds to is its to close if that one dies.
          worker_id: sql<string | null>`coalesce(excluded.worker_id, traces.worker_id)`,
        })),
      )
      .execute();
  }

  /**
   * Inserts spans or replaces their contents when they exist (a span is written at start and at end). The batch goes
   * as one JSON value unpacked by the server: one statement text whatever its size (prepared once), where a VALUES
   * list of 16 placeholders a row was a new text for every batch size, compiled by Kysely and bound value by value.
   */
  async upsertSpans(spans: SpanRecord[]): Promise<void> {
    if (spans.length === 0) return;
    const rows = spans.map((span) => ({
      id: span.id,
      trace_id: span.traceId,
      parent_id: span.parentId,
      session_id: span.sessionId,
      type: span.type,
      name: span.name,
      started_at: span.startedAt,
      ended_at: span.endedAt,
      data: span.data,
      error: span.error,
      model: span.model,
      input_tokens: span.inputTokens,
      output_tokens: span.outputTokens,
      cost_usd: span.costUsd,
      cost_source: span.costSource ?? null,
      message_id: span.messageId,
    }));
    await UPSERT_SPANS.execute(this.db, toJson(rows));
  }

  /** Traces, newest first, with totals; filtered by session, text, agent, model or errors. */
  async listTraces(filter: TraceFilter = {}): Promise<TraceSummary[]> {
    const rows = await this.db
      .selectFrom('traces')
      .selectAll('traces')
      .select((eb) => [
        eb.selectFrom('spans').select(eb.fn.countAll<number>().as('n')).whereRef('spans.trace_id', '=', 'traces.id').as('span_count'),
        eb.selectFrom('spans').select(eb.fn.countAll<number>().as('n')).whereRef('spans.trace_id', '=', 'traces.id').where(SPAN_FAILED).as('error_count'),
        eb
          .selectFrom('spans')
          .select(sql<number>`coalesce(sum(input_tokens), 0)`.as('n'))
          .whereRef('spans.trace_id', '=', 'traces.id')
          .as('input_tokens'),
        eb
          .selectFrom('spans')
          .select(sql<number>`coalesce(sum(output_tokens), 0)`.as('n'))
          .whereRef('spans.trace_id', '=', 'traces.id')
          .as('output_tokens'),
        eb
          .selectFrom('spans')
          .select(sql<number>`coalesce(sum(cost_usd), 0)`.as('n'))
          .whereRef('spans.trace_id', '=', 'traces.id')
          .as('cost_usd'),
        eb
          .selectFrom('spans')
          .select(sql<Date | null>`min(started_at)`.as('n'))
          .whereRef('spans.trace_id', '=', 'traces.id')
          .as('first_span_at'),
        eb
          .selectFrom('spans')
          .select(sql<Date | null>`max(ended_at)`.as('n'))
          .whereRef('spans.trace_id', '=', 'traces.id')
          .as('last_span_end'),
      ])
      .where((eb) => eb.and(this.conditions(eb, filter)))
      .orderBy('traces.started_at', 'desc')
      .orderBy('traces.id', 'desc')
      .limit(Math.min(filter.limit ?? 50, 500))
      .execute();
    return rows.map((row) => ({
      ...toTrace(row),
      spanCount: Number(row.span_count ?? 0),
      errorCount: Number(row.error_count ?? 0),
      inputTokens: Number(row.input_tokens ?? 0),
      outputTokens: Number(row.output_tokens ?? 0),
      costUsd: Number(row.cost_usd ?? 0),
      firstSpanAt: row.first_span_at ? new Date(row.first_span_at) : null,
      lastSpanEnd: row.last_span_end ? new Date(row.last_span_end) : null,
    }));
  }

  private conditions(eb: TraceScope, filter: TraceFilter) {
    const conditions = [];
    const spanExists = (extra: (spans: ExpressionBuilder<Database, 'traces' | 'spans'>) => Expression<SqlBool>) =>
      eb.exists(
        eb
          .selectFrom('spans')
          .select('spans.id')
          .whereRef('spans.trace_id', '=', 'traces.id')
          .where((inner) => extra(inner)),
      );
    if (filter.sessionId) conditions.push(eb('traces.session_id', '=', filter.sessionId));
    if (filter.before) conditions.push(eb('traces.started_at', '<', filter.before));
    if (filter.agent) conditions.push(spanExists((inner) => inner.and([inner('spans.type', '=', 'agent'), inner('spans.name', '=', filter.agent ?? '')])));
    if (filter.model) conditions.push(spanExists((inner) => inner('spans.model', '=', filter.model ?? '')));
    if (filter.errorsOnly) conditions.push(spanExists(() => SPAN_FAILED));
    if (filter.text) {
      const pattern = `%${escapeLike(filter.text)}%`;
      conditions.push(
        eb.or([eb('traces.name', 'ilike', pattern), spanExists(() => sql<SqlBool>`(spans.name ilike ${pattern} or spans.data::text ilike ${pattern})`)]),
      );
    }
    return conditions;
  }

  /** A trace and its spans in start order, or null. */
  async getTrace(id: string): Promise<{ trace: TraceRecord; spans: SpanRecord[] } | null> {
    const trace = await this.db.selectFrom('traces').selectAll().where('id', '=', id).executeTakeFirst();
    if (!trace) return null;
    const spans = await this.db.selectFrom('spans').selectAll().where('trace_id', '=', id).orderBy('started_at').orderBy('id').execute();
    return { trace: toTrace(trace), spans: spans.map(toSpan) };
  }

  /** Tokens and cost of one trace. */
  async totalsForTrace(traceId: string): Promise<UsageTotals> {
    const row = await this.db
      .selectFrom('spans')
      .select([
        sql<number>`coalesce(sum(input_tokens), 0)`.as('input_tokens'),
        sql<number>`coalesce(sum(output_tokens), 0)`.as('output_tokens'),
        sql<number>`coalesce(sum(cost_usd), 0)`.as('cost_usd'),
      ])
      .where('trace_id', '=', traceId)
      .executeTakeFirstOrThrow();
    return { inputTokens: Number(row.input_tokens), outputTokens: Number(row.output_tokens), costUsd: Number(row.cost_usd) };
  }

  /** Tokens and cost per agent (participant or role) of a session, from its generation spans. */
  async totalsByAgent(sessionId: string): Promise<AgentTotals[]> {
    const agent = sql<string>`coalesce(data->>'agent', '(unknown)')`;
    const rows = await this.db
      .selectFrom('spans')
      .select([
        agent.as('agent'),
        sql<number>`count(*)`.as('generations'),
        sql<number>`coalesce(sum(input_tokens), 0)`.as('input_tokens'),
        sql<number>`coalesce(sum(output_tokens), 0)`.as('output_tokens'),
        sql<number>`coalesce(sum(cost_usd), 0)`.as('cost_usd'),
      ])
      .where('session_id', '=', sessionId)
      .where('type', '=', 'generation')
      .groupBy(agent)
      .orderBy(agent)
      .execute();
    return rows.map((row) => ({
      agent: row.agent,
      generations: Number(row.generations),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      costUsd: Number(row.cost_usd),
    }));
  }

  /** A session's cost by model and source, over the generations that reported any usage (for the console's cost note). */
  async costSources(sessionId: string): Promise<CostSourceTotals[]> {
    const rows = await this.db
      .selectFrom('spans')
      .select(['model', 'cost_source', sql<number>`count(*)`.as('generations'), sql<number>`coalesce(sum(cost_usd), 0)`.as('cost_usd')])
      .where('session_id', '=', sessionId)
      .where('type', '=', 'generation')
      .where(sql<SqlBool>`(input_tokens + output_tokens > 0 or cost_usd > 0)`)
      .groupBy(['model', 'cost_source'])
      .orderBy('model')
      .orderBy('cost_source')
      .execute();
    return rows.map((row) => ({
      model: row.model,
      costSource: isCostSource(row.cost_source) ? row.cost_source : null,
      generations: Number(row.generations),
      costUsd: Number(row.cost_usd),
    }));
  }

  /** Links a span to the message it produced. */
  async linkMessage(spanId: string, messageId: number): Promise<void> {
    await this.db.updateTable('spans').set({ message_id: messageId }).where('id', '=', spanId).execute();
  }

  /** The spans linked to a message (the viewer's "from message to span" link). */
  async spansForMessage(messageId: number): Promise<SpanRecord[]> {
    const rows = await this.db.selectFrom('spans').selectAll().where('message_id', '=', messageId).orderBy('started_at').execute();
    return rows.map(toSpan);
  }

  /**
   * Deletes up to `limit` traces that started before `cutoff`, oldest first, with their spans; returns how many traces
   * went. A batch at a time: a first run over months of traces would otherwise hold PGlite for seconds.
   */
  async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
    const { rows } = await sql<{ deleted: number }>`
      with old as (select id from traces where started_at < ${cutoff} order by started_at limit ${limit}),
      old_spans as (delete from spans where trace_id in (select id from old)),
      old_traces as (delete from traces where id in (select id from old) returning id)
      select count(*)::int as deleted from old_traces`.execute(this.db);
    return Number(rows[0]?.deleted ?? 0);
  }
}
