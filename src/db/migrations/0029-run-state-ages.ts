import { sql, type Kysely } from 'kysely';

/**
 * Paused runs by age: housekeeping deletes the ones spent long ago (each holds a whole serialised SDK run, and every
 * plan a Planner proposed left one for ever) without reading the whole table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX run_states_by_age ON run_states (updated_at)`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX run_states_by_age`.execute(db);
}
