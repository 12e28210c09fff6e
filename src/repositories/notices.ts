/** Notices to the other processes sharing the database (Postgres `NOTIFY`), as the repositories that own a channel send them. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Sends `payload` to every process listening on `channel` (see `PostgresSignals`), once the statement commits. On
 * embedded PGlite (one process) nobody listens.
 */
export async function sendNotice(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}
