import { sql, type Kysely } from 'kysely';

/**
 * The session clock that limits count from: `clock_started_at` moves forward by paused time and restarts
 * on `!reset`; `paused_at` marks a pause in progress. `started_at` stays the real start (shown to people).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions ADD COLUMN clock_started_at timestamptz;`.execute(db);
  await sql`ALTER TABLE sessions ADD COLUMN paused_at timestamptz;`.execute(db);
  await sql`UPDATE sessions SET clock_started_at = started_at;`.execute(db);
}

/** Drops the session clock columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions DROP COLUMN paused_at;`.execute(db);
  await sql`ALTER TABLE sessions DROP COLUMN clock_started_at;`.execute(db);
}
