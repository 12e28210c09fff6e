import { sql, type Kysely } from 'kysely';

/**
 * What a process that died (killed, crashed, its machine gone) leaves behind, made findable:
 * - which worker instance wrote each trace, so a trace it left open is closed as cut short once that instance is
 *   declared gone, instead of showing as running for ever (the partial index keeps that check to the open ones);
 * - the streaming previews each instance posted (a half-written answer ending in ▍ in a Discord thread), so the
 *   ones whose answer was never stored are removed instead of staying in the room as if the bot had said them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE traces ADD COLUMN worker_id text;
    CREATE INDEX traces_open ON traces (worker_id) WHERE ended_at IS NULL;

    CREATE TABLE stream_previews (
      external_id text PRIMARY KEY,
      session_id text NOT NULL,
      transport text NOT NULL,
      room_id text NOT NULL,
      worker_id text NOT NULL,
      posted_at timestamptz NOT NULL
    );
    CREATE INDEX stream_previews_worker ON stream_previews (worker_id);
    CREATE INDEX stream_previews_posted ON stream_previews (posted_at);
  `.execute(db);
}

/** Drops both. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE stream_previews;
    DROP INDEX traces_open;
    ALTER TABLE traces DROP COLUMN worker_id;
  `.execute(db);
}
