import { sql, type Kysely } from 'kysely';

/** The idea ledger: distinct ideas of a session, its disagreements and open questions, and one row per pass. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ideas (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      number integer NOT NULL,
      title text NOT NULL,
      summary text NOT NULL,
      proposer text NOT NULL,
      builders jsonb NOT NULL DEFAULT '[]'::jsonb,
      objectors jsonb NOT NULL DEFAULT '[]'::jsonb,
      message_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
      mentions integer NOT NULL DEFAULT 1,
      first_pass integer NOT NULL,
      embedding real[],
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (session_id, number)
    );
    CREATE TABLE idea_notes (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      kind text NOT NULL,
      text text NOT NULL,
      sides jsonb NOT NULL DEFAULT '[]'::jsonb,
      message_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
      first_pass integer NOT NULL,
      embedding real[],
      created_at timestamptz NOT NULL
    );
    CREATE INDEX idea_notes_session ON idea_notes (session_id, kind);
    CREATE TABLE idea_passes (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      number integer NOT NULL,
      last_message_id bigint NOT NULL,
      messages integer NOT NULL,
      candidates integer NOT NULL,
      new_ideas integer NOT NULL,
      duplicates integer NOT NULL,
      new_objections integer NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (session_id, number)
    );
  `.execute(db);
}

/** Drops the idea ledger. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idea_passes, idea_notes, ideas;`.execute(db);
}
