import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Citation } from '../core/domain.ts';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';
import type {
  InboundClaimsTable,
  LocalDeliveriesTable,
  ReadCursorsTable,
  SessionLeasesTable,
  StreamPreviewsTable,
  WorkerInstancesTable,
} from './schema-rooms-and-workers.ts';

export type { LocalDeliveriesTable } from './schema-rooms-and-workers.ts';

/** A brainstorm session: one per thread (Discord) or room (local channel). */
export interface SessionsTable {
  id: string;
  parent_id: string | null;
  transport: string;
  room_id: string;
  origin_channel_id: string | null;
  origin_message_id: string | null;
  room_url: string | null;
  topic: string;
  status: string;
  created_by_id: string;
  created_by_name: string;
  plan: Json<unknown | null>;
  planner_state: Json<unknown>;
  moderation_state: Json<unknown>;
  disabled_participants: Json<string[]>;
  message_count: Generated<number>;
  total_tokens: Generated<number>;
  total_cost_usd: Generated<number>;
  ai_rounds_since_human: Generated<number>;
  end_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  /** Where the limits' clock counts from (moved by pauses, restarted by `!reset`). */
  clock_started_at: NullableTimestamp;
  /** When the running pause began, null while not paused. */
  paused_at: NullableTimestamp;
  /** The number of the session's last idea-ledger pass (0: none yet), written with the pass. */
  ledger_passes: Generated<number>;
  /** Who rests from the AI rounds after repeating itself and who the room was told of (`SessionRepeats`). */
  repeat_state: ColumnType<unknown, string | undefined, string>;
}

/** Every message said in a session, by a person or an agent; ordered by id. */
export interface MessagesTable {
  id: Generated<number>;
  session_id: string;
  /** 1, 2, 3… within the session (what citations such as "#12" refer to). */
  number: number;
  source_id: string | null;
  speaker_kind: string;
  speaker_name: string;
  speaker_id: string | null;
  role: string;
  content: Json<{
    role: string;
    content: string;
    name?: string;
    interrupted?: boolean;
    edited?: boolean;
    editedAt?: string;
    addressedTo?: string[];
    citations?: Citation[];
    webSearches?: number;
  }>;
  model: string | null;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  cost_usd: Generated<number>;
  /** Where the cost came from (a `CostSource`); null before it was recorded. */
  cost_source: string | null;
  reply_to: Json<number[]>;
  trace_id: string | null;
  span_id: string | null;
  delivery_status: string;
  external_ids: Json<string[]>;
  external_url: string | null;
  created_at: Timestamp;
  deleted_at: NullableTimestamp;
  /** The transaction that last wrote the row (`xid8` as text; null for rows not written since migration 0025). */
  changed_xid: Generated<string | null>;
}

/** A paused SDK run (human-in-the-loop), serialised so it survives a restart. */
export interface RunStatesTable {
  id: Generated<number>;
  session_id: string;
  kind: string;
  state: string;
  status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The Scribe record and TLDR of a session, the newest version. */
export interface DocumentsTable {
  id: Generated<number>;
  session_id: string;
  kind: string;
  version: number;
  content: string;
  metadata: Json<Record<string, unknown>>;
  external_id: string | null;
  synced_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

/** Every version a document has had. */
export interface DocumentVersionsTable {
  id: Generated<number>;
  document_id: number;
  version: number;
  content: string;
  /** What the version was written with (null for versions older than the column). */
  metadata: ColumnType<Record<string, unknown> | null, string | undefined, string>;
  created_at: Timestamp;
}

/** The outbox and every timer: work to be done once, claimed with SKIP LOCKED. */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  dedupe_key: string | null;
  queue: string | null;
  session_id: string | null;
  payload: Json<Record<string, unknown>>;
  status: string;
  run_at: Timestamp;
  locked_until: NullableTimestamp;
  locked_by: string | null;
  retry_count: Generated<number>;
  max_retries: number;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  /** Failures before this time are retried whatever `max_retries` says (null: the count decides). */
  retry_until: NullableTimestamp;
}

/** One attempt at a job. */
export interface JobRunsTable {
  id: Generated<number>;
  job_id: number;
  attempt: number;
  worker_id: string;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  outcome: string | null;
  error: string | null;
}

/** One SDK trace (one turn of one session). */
export interface TracesTable {
  id: string;
  session_id: string | null;
  name: string;
  group_id: string | null;
  metadata: Json<Record<string, unknown>>;
  started_at: Timestamp;
  ended_at: NullableTimestamp;
  /** The worker instance that last wrote it (null: written before this was recorded). */
  worker_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One SDK span: agent, generation, function, handoff, guardrail, custom, task, turn. */
export interface SpansTable {
  id: string;
  trace_id: string;
  parent_id: string | null;
  session_id: string | null;
  type: string;
  name: string;
  started_at: Timestamp;
  ended_at: NullableTimestamp;
  data: Json<Record<string, unknown>>;
  error: Json<Record<string, unknown> | null>;
  model: string | null;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  cost_usd: Generated<number>;
  /** Where the cost came from (a `CostSource`); null for spans other than ended generations. */
  cost_source: string | null;
  message_id: number | null;
}

/** Admin settings changed with `!config`, and other small persisted values. */
export interface SettingsTable {
  key: string;
  value: Json<unknown>;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** Embeddings of session topics, objectives and records, for recall and drift. */
export interface SessionEmbeddingsTable {
  id: Generated<number>;
  session_id: string;
  kind: string;
  content: string;
  embedding: number[];
  created_at: Timestamp;
}

/** Ids of Notion objects (database, data source, session pages) by a key such as `session:<id>:record`. */
export interface NotionObjectsTable {
  key: string;
  object_id: string;
  updated_at: Timestamp;
}

/** The Kysely database interface. */
export interface Database {
  sessions: SessionsTable;
  messages: MessagesTable;
  run_states: RunStatesTable;
  documents: DocumentsTable;
  document_versions: DocumentVersionsTable;
  jobs: JobsTable;
  job_runs: JobRunsTable;
  traces: TracesTable;
  spans: SpansTable;
  settings: SettingsTable;
  session_embeddings: SessionEmbeddingsTable;
  notion_objects: NotionObjectsTable;
  worker_instances: WorkerInstancesTable;
  inbound_claims: InboundClaimsTable;
  read_cursors: ReadCursorsTable;
  session_leases: SessionLeasesTable;
  stream_previews: StreamPreviewsTable;
  local_deliveries: LocalDeliveriesTable;
}

export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type SessionUpdate = Updateable<SessionsTable>;
export type MessageRow = Selectable<MessagesTable>;
/** A column's value as `json_agg` returns it: a timestamp as ISO text (distributes over `| null`). */
type JsonValue<Value> = Value extends Date ? string : Value;
/** A table's row as `json_agg` returns it: the same columns, timestamps as ISO text. */
export type JsonRow<Table> = { [Column in keyof Selectable<Table>]: JsonValue<Selectable<Table>[Column]> };
/** A message row as `json_agg` returns it. */
export type MessageJsonRow = JsonRow<MessagesTable>;
/** A session row as `to_jsonb` returns it. */
export type SessionJsonRow = JsonRow<SessionsTable>;
export type JobRow = Selectable<JobsTable>;
export type SpanRow = Selectable<SpansTable>;
export type TraceRow = Selectable<TracesTable>;
export type DocumentRow = Selectable<DocumentsTable>;

/** Serialises a value for a JSONB column (pg would turn arrays into Postgres arrays). */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}
