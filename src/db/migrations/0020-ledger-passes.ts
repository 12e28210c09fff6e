import { sql, type Kysely } from 'kysely';

/**
 * How many idea-ledger passes a session has had, written with each pass: the review after a round reads the
 * ledger only when this moved, not after every round.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions ADD COLUMN ledger_passes integer NOT NULL DEFAULT 0;`.execute(db);
  await sql`
    UPDATE sessions SET ledger_passes = passes.last
    FROM (SELECT session_id, max(number) AS last FROM idea_passes GROUP BY session_id) AS passes
    WHERE passes.session_id = sessions.id;
  `.execute(db);
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions DROP COLUMN ledger_passes;`.execute(db);
}
