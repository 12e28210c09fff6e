import { sql, type Kysely } from 'kysely';

/**
 * Inbound claims: a person's message (or command) is claimed once before anything acts on it, so several
 * processes, or a catch-up that reads a message already handled, never act twice. Read cursors: the last
 * transport message seen per channel, where catch-up resumes after a restart or a reconnect.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE inbound_claims (
      transport text NOT NULL,
      external_id text NOT NULL,
      claimed_at timestamptz NOT NULL,
      PRIMARY KEY (transport, external_id)
    );
    CREATE TABLE read_cursors (
      transport text NOT NULL,
      channel_id text NOT NULL,
      last_external_id text NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (transport, channel_id)
    );
  `.execute(db);
}

/** Drops both tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE read_cursors;
    DROP TABLE inbound_claims;
  `.execute(db);
}
