import { sql, type Kysely } from 'kysely';

/** Critique rounds: one per session, what was reviewed, the ballots and the aggregate ranking. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE critique_rounds (
      session_id text PRIMARY KEY REFERENCES sessions(id),
      proposals jsonb NOT NULL DEFAULT '[]'::jsonb,
      ballots jsonb NOT NULL DEFAULT '[]'::jsonb,
      failures jsonb NOT NULL DEFAULT '[]'::jsonb,
      standings jsonb NOT NULL DEFAULT '[]'::jsonb,
      skipped_reason text,
      created_at timestamptz NOT NULL
    );
  `.execute(db);
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE critique_rounds;`.execute(db);
}
