import { sql, type Kysely } from 'kysely';

/**
 * Session leases: the process (worker instance) whose turns a live session runs in. A lease that is not renewed,
 * or whose owner instance is stopped, is free to take: another process resumes the session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE session_leases (
      session_id text PRIMARY KEY,
      owner_id text NOT NULL,
      lease_until timestamptz NOT NULL,
      acquired_at timestamptz NOT NULL,
      kick_requested boolean NOT NULL DEFAULT false
    );
    CREATE INDEX session_leases_owner ON session_leases (owner_id);
  `.execute(db);
}

/** Drops the leases. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE session_leases;`.execute(db);
}
