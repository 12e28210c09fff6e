/**
 * The tables about the transports' rooms and the processes that serve them: messages claimed and channels read,
 * worker instances and their session leases, and what rooms show (streaming previews, the local channel). The
 * Kysely `Database` interface in schema.ts names them with the rest.
 */
import type { Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';

/** A person's message claimed before it is acted on (one row per transport message). */
export interface InboundClaimsTable {
  transport: string;
  external_id: string;
  claimed_at: Date;
  /** The worker instance (process) that claimed it; null on claims older than migration 0027. */
  claimed_by: string | null;
  /** The channel (a room, or a brainstorm channel) it was said in: where a catch-up reads it again (since 0028). */
  channel_id: string | null;
  /** Its handling ended without storing it (a command, a refusal, a failure); a stored message is settled by its row. */
  settled: Generated<boolean>;
}

/** The last transport message seen in a channel: where catch-up resumes. */
export interface ReadCursorsTable {
  transport: string;
  channel_id: string;
  last_external_id: string;
  updated_at: Date;
}

/** A running job worker: its heartbeat tells whether the jobs it leased are still being worked on. */
export interface WorkerInstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
  stopped_at: NullableTimestamp;
}

/** Which worker instance runs a live session's turns, until when (see migration 0013). */
export interface SessionLeasesTable {
  session_id: string;
  owner_id: string;
  lease_until: Timestamp;
  acquired_at: Timestamp;
  kick_requested: Generated<boolean>;
}

/** A streaming preview posted by a worker instance (see migration 0022): removed if its process dies before the answer is stored. */
export interface StreamPreviewsTable {
  external_id: string;
  session_id: string;
  transport: string;
  room_id: string;
  worker_id: string;
  posted_at: Timestamp;
}

/** A message the console's local channel showed in a room (see migrations/0024-local-deliveries.ts). */
export interface LocalDeliveriesTable {
  position: Generated<number>;
  external_id: string;
  room_id: string;
  speaker: Json<unknown>;
  content: string;
  reply_to: Json<unknown>;
  actions: Json<unknown>;
  buttons: Json<unknown>;
  simulated: boolean;
  delivered_at: Timestamp;
}
