import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { cutSpanError } from '../core/turn-scope.ts';

/** Most traces one reclaim closes (a process that died mid-turn leaves a handful; the rest wait for the next). */
const CLOSED_PER_RECLAIM = 500;

const PROCESS_STOPPED = JSON.stringify(cutSpanError('process_stopped'));

/**
 * Closes the traces left open by worker instances declared gone: their unfinished spans end cut short
 * ("process_stopped", not an error), at the last moment the trace is known to have been running: its last span
 * written, or its process's last heartbeat if later (spans are written when they start, so a turn that streamed for
 * seconds shows only its start). A process that was only paused and writes its spans' real ends later replaces
 * these (the writes upsert). Returns how many closed.
 */
export async function closeAbandonedTraces(db: Kysely<Database>): Promise<number> {
  const result = await sql<{ id: string }>`
    WITH abandoned AS (
      SELECT trace.id, greatest(trace.started_at, instance.heartbeat_at, (
        SELECT max(coalesce(span.ended_at, span.started_at)) FROM spans AS span WHERE span.trace_id = trace.id
      )) AS last_seen
      FROM traces AS trace
      JOIN worker_instances AS instance ON instance.id = trace.worker_id
      WHERE trace.ended_at IS NULL AND instance.stopped_at IS NOT NULL
      LIMIT ${CLOSED_PER_RECLAIM}
    ), closed_spans AS (
      UPDATE spans SET
        ended_at = greatest(spans.started_at, abandoned.last_seen),
        error = CASE WHEN spans.error IS NULL OR spans.error = 'null'::jsonb THEN ${PROCESS_STOPPED}::jsonb ELSE spans.error END
      FROM abandoned
      WHERE spans.trace_id = abandoned.id AND spans.ended_at IS NULL
      RETURNING spans.id
    )
    UPDATE traces SET ended_at = abandoned.last_seen
    FROM abandoned
    WHERE traces.id = abandoned.id
    RETURNING traces.id
  `.execute(db);
  return result.rows.length;
}
