import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A stored paused run. */
export interface StoredRunState {
  id: number;
  sessionId: string;
  kind: string;
  state: string;
}

/** Paused SDK runs (human in the loop), one waiting per session and kind. */
export class RunStatesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a paused run, superseding any earlier waiting one of the same kind. */
  async save(sessionId: string, kind: string, state: string, now: Date): Promise<number> {
    return this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('run_states')
        .set({ status: 'superseded', updated_at: now })
        .where('session_id', '=', sessionId)
        .where('kind', '=', kind)
        .where('status', '=', 'waiting')
        .execute();
      const row = await transaction
        .insertInto('run_states')
        .values({ session_id: sessionId, kind, state, status: 'waiting', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  /** The waiting run of a session, or null. */
  async findWaiting(sessionId: string, kind: string): Promise<StoredRunState | null> {
    const row = await this.db
      .selectFrom('run_states')
      .select(['id', 'session_id', 'kind', 'state'])
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .where('status', '=', 'waiting')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? { id: row.id, sessionId: row.session_id, kind: row.kind, state: row.state } : null;
  }

  /** Marks a run as taken (resumed or cancelled); false when someone else took it first. */
  async resolve(id: number, status: 'resumed' | 'cancelled', now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('run_states')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Takes again a run this caller marked resumed at `takenAt` without hearing so (the database's answer was lost):
   * true only while it is still marked as that take left it, so a run another caller took is never taken twice.
   */
  async retake(id: number, takenAt: Date, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('run_states')
      .set({ updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'resumed')
      .where('updated_at', '=', takenAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
