import { sql, type Kysely } from 'kysely';

/**
 * Which worker instance wrote each trace: a trace left open by a process that died (killed, crashed, its machine
 * gone) is closed as cut short once that instance is declared gone, instead of showing as running for ever. The
 * partial index keeps that check, run with every reclaim, to the few traces still open.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE traces ADD COLUMN worker_id text;
    CREATE INDEX traces_open ON traces (worker_id) WHERE ended_at IS NULL;
  `.execute(db);
}

/** Drops the index and the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX traces_open;
    ALTER TABLE traces DROP COLUMN worker_id;
  `.execute(db);
}
