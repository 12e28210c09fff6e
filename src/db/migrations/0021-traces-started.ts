import { sql, type Kysely } from 'kysely';

/** Traces by start: housekeeping deletes the oldest past `TRACE_RETENTION_DAYS` a batch at a time, every minute. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX traces_started ON traces (started_at);`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX traces_started;`.execute(db);
}
