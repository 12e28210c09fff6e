import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A streaming preview a worker instance posted in a room. */
export interface StreamPreview {
  externalId: string;
  sessionId: string;
  transport: string;
  roomId: string;
  workerId: string;
  postedAt: Date;
}

/** A preview left by an instance that is gone, and whether its answer was stored (then its delivery finishes it). */
export interface LeftPreview extends StreamPreview {
  answered: boolean;
}

/**
 * The streaming previews posted in rooms that keep them (Discord), by worker instance: a process that dies mid-answer
 * leaves a half-written message behind, and the next process finds and removes it here.
 */
export class StreamPreviewsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a preview just posted. */
  async remember(preview: StreamPreview): Promise<void> {
    await this.db
      .insertInto('stream_previews')
      .values({
        external_id: preview.externalId,
        session_id: preview.sessionId,
        transport: preview.transport,
        room_id: preview.roomId,
        worker_id: preview.workerId,
        posted_at: preview.postedAt,
      })
      .onConflict((conflict) => conflict.column('external_id').doNothing())
      .execute();
  }

  /**
   * Previews posted by instances declared gone, oldest first. `answered`: a message was stored with it (its delivery
   * job turns the preview into the answer, or already did), so it must stay.
   */
  async leftByGoneInstances(limit: number): Promise<LeftPreview[]> {
    const rows = await sql<{
      external_id: string;
      session_id: string;
      transport: string;
      room_id: string;
      worker_id: string;
      posted_at: Date;
      answered: boolean;
    }>`
      SELECT preview.*, (
        EXISTS (
          SELECT 1 FROM messages AS message
          WHERE message.session_id = preview.session_id AND message.external_ids @> jsonb_build_array(preview.external_id)
        ) OR EXISTS (
          SELECT 1 FROM jobs AS job
          WHERE job.session_id = preview.session_id AND job.payload->>'previewExternalId' = preview.external_id
        )
      ) AS answered
      FROM stream_previews AS preview
      WHERE preview.worker_id IN (SELECT id FROM worker_instances WHERE stopped_at IS NOT NULL)
      ORDER BY preview.posted_at
      LIMIT ${limit}
    `.execute(this.db);
    return rows.rows.map((row) => ({
      externalId: row.external_id,
      sessionId: row.session_id,
      transport: row.transport,
      roomId: row.room_id,
      workerId: row.worker_id,
      postedAt: new Date(row.posted_at),
      answered: row.answered,
    }));
  }

  /** Forgets previews (removed, or finished by their answer). */
  async forget(externalIds: string[]): Promise<void> {
    if (externalIds.length === 0) return;
    await this.db.deleteFrom('stream_previews').where('external_id', 'in', externalIds).execute();
  }

  /** Forgets previews posted before `cutoff`, up to `limit`: long finished, whoever posted them. Returns how many. */
  async forgetOlderThan(cutoff: Date, limit: number): Promise<number> {
    const result = await sql`
      DELETE FROM stream_previews WHERE external_id IN (SELECT external_id FROM stream_previews WHERE posted_at < ${cutoff} LIMIT ${limit})
    `.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}
