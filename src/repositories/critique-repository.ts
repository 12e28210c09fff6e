import type { ColumnType, Kysely } from 'kysely';
import { toJson, type Database } from '../db/schema.ts';
import type { CritiqueBallot, CritiqueFailure, CritiqueProposal, CritiqueRound, CritiqueStanding } from '../core/critique.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** `critique_rounds` (migration 0019). */
interface CritiqueRoundsTable {
  session_id: string;
  proposals: Json<CritiqueProposal[]>;
  ballots: Json<CritiqueBallot[]>;
  failures: Json<CritiqueFailure[]>;
  standings: Json<CritiqueStanding[]>;
  skipped_reason: string | null;
  created_at: Timestamp;
}

/** The table this repository adds to the schema (kept here so `schema.ts` stays untouched). */
export type CritiqueTables = { critique_rounds: CritiqueRoundsTable };

/** The critique round of every session that had one. */
export class CritiqueRepository {
  private readonly db: Kysely<Database & CritiqueTables>;

  constructor(db: Kysely<Database>) {
    this.db = db.withTables<CritiqueTables>();
  }

  /** The session's round, or null when it had none (yet). */
  async find(sessionId: string): Promise<CritiqueRound | null> {
    const row = await this.db.selectFrom('critique_rounds').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
    if (!row) return null;
    return {
      sessionId: row.session_id,
      proposals: row.proposals,
      ballots: row.ballots,
      failures: row.failures,
      standings: row.standings,
      skippedReason: row.skipped_reason,
      createdAt: row.created_at,
    };
  }

  /** Stores a round once: false when the session already has one (a retried wrap-up, another process). */
  async save(round: CritiqueRound): Promise<boolean> {
    const result = await this.db
      .insertInto('critique_rounds')
      .values({
        session_id: round.sessionId,
        proposals: toJson(round.proposals),
        ballots: toJson(round.ballots),
        failures: toJson(round.failures),
        standings: toJson(round.standings),
        skipped_reason: round.skippedReason,
        created_at: round.createdAt,
      })
      .onConflict((conflict) => conflict.column('session_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
