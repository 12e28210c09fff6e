import { sql, type Kysely } from 'kysely';

/** The first schema: sessions, messages, run states, documents, the job outbox, traces, settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      parent_id text REFERENCES sessions(id),
      transport text NOT NULL,
      room_id text NOT NULL,
      origin_channel_id text,
      origin_message_id text,
      room_url text,
      topic text NOT NULL,
      status text NOT NULL,
      created_by_id text NOT NULL,
      created_by_name text NOT NULL,
      plan jsonb,
      planner_state jsonb NOT NULL DEFAULT '{}'::jsonb,
      moderation_state jsonb NOT NULL DEFAULT '{}'::jsonb,
      disabled_participants jsonb NOT NULL DEFAULT '[]'::jsonb,
      message_count integer NOT NULL DEFAULT 0,
      total_tokens bigint NOT NULL DEFAULT 0,
      total_cost_usd double precision NOT NULL DEFAULT 0,
      ai_rounds_since_human integer NOT NULL DEFAULT 0,
      end_reason text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      started_at timestamptz,
      ended_at timestamptz,
      deleted_at timestamptz
    );
    CREATE UNIQUE INDEX sessions_room ON sessions (transport, room_id) WHERE deleted_at IS NULL;
    CREATE INDEX sessions_status ON sessions (status) WHERE deleted_at IS NULL;

    CREATE TABLE messages (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      source_id text UNIQUE,
      speaker_kind text NOT NULL,
      speaker_name text NOT NULL,
      speaker_id text,
      role text NOT NULL,
      content jsonb NOT NULL,
      model text,
      input_tokens integer NOT NULL DEFAULT 0,
      output_tokens integer NOT NULL DEFAULT 0,
      cost_usd double precision NOT NULL DEFAULT 0,
      reply_to jsonb NOT NULL DEFAULT '[]'::jsonb,
      trace_id text,
      span_id text,
      delivery_status text NOT NULL,
      external_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
      external_url text,
      created_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX messages_session ON messages (session_id, id) WHERE deleted_at IS NULL;

    CREATE TABLE run_states (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      kind text NOT NULL,
      state text NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX run_states_session ON run_states (session_id, kind, status);

    CREATE TABLE documents (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      kind text NOT NULL,
      version integer NOT NULL,
      content text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      external_id text,
      synced_version integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE UNIQUE INDEX documents_session_kind ON documents (session_id, kind) WHERE deleted_at IS NULL;

    CREATE TABLE document_versions (
      id bigserial PRIMARY KEY,
      document_id bigint NOT NULL REFERENCES documents(id),
      version integer NOT NULL,
      content text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (document_id, version)
    );

    CREATE TABLE jobs (
      id bigserial PRIMARY KEY,
      kind text NOT NULL,
      dedupe_key text,
      queue text,
      session_id text,
      payload jsonb NOT NULL DEFAULT '{}'::jsonb,
      status text NOT NULL,
      run_at timestamptz NOT NULL,
      locked_until timestamptz,
      locked_by text,
      retry_count integer NOT NULL DEFAULT 0,
      max_retries integer NOT NULL,
      last_error text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz,
      deleted_at timestamptz
    );
    CREATE UNIQUE INDEX jobs_pending_dedupe ON jobs (kind, dedupe_key) WHERE status = 'pending';
    CREATE INDEX jobs_due ON jobs (status, run_at);
    CREATE INDEX jobs_queue ON jobs (queue, id) WHERE status IN ('pending', 'running');

    CREATE TABLE job_runs (
      id bigserial PRIMARY KEY,
      job_id bigint NOT NULL REFERENCES jobs(id),
      attempt integer NOT NULL,
      worker_id text NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      outcome text,
      error text
    );
    CREATE INDEX job_runs_job ON job_runs (job_id);

    CREATE TABLE traces (
      id text PRIMARY KEY,
      session_id text,
      name text NOT NULL,
      group_id text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      started_at timestamptz NOT NULL,
      ended_at timestamptz
    );
    CREATE INDEX traces_session ON traces (session_id, started_at);

    CREATE TABLE spans (
      id text PRIMARY KEY,
      trace_id text NOT NULL,
      parent_id text,
      session_id text,
      type text NOT NULL,
      name text NOT NULL,
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      data jsonb NOT NULL DEFAULT '{}'::jsonb,
      error jsonb,
      model text,
      input_tokens integer NOT NULL DEFAULT 0,
      output_tokens integer NOT NULL DEFAULT 0,
      cost_usd double precision NOT NULL DEFAULT 0,
      message_id bigint
    );
    CREATE INDEX spans_trace ON spans (trace_id, started_at);
    CREATE INDEX spans_session ON spans (session_id);

    CREATE TABLE settings (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_by text,
      updated_at timestamptz NOT NULL
    );

    CREATE TABLE session_embeddings (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions(id),
      kind text NOT NULL,
      content text NOT NULL,
      embedding real[] NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX session_embeddings_session ON session_embeddings (session_id, kind);
  `.execute(db);
}

/** Drops the first schema. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE session_embeddings, settings, spans, traces, job_runs, jobs, document_versions, documents, run_states, messages, sessions;
  `.execute(db);
}
