import { sql, type Kysely } from 'kysely';

/**
 * Worker instances with heartbeats, so a job leased by a process that died is claimable at once instead of
 * after its lease; and a per-job deadline for retries (document jobs retry for hours, not a count of attempts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE worker_instances (
      id text PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      started_at timestamptz NOT NULL,
      heartbeat_at timestamptz NOT NULL,
      stopped_at timestamptz
    );
    CREATE INDEX worker_instances_heartbeat ON worker_instances (heartbeat_at) WHERE stopped_at IS NULL;
    ALTER TABLE jobs ADD COLUMN retry_until timestamptz;
    CREATE INDEX jobs_running_locked_by ON jobs (locked_by) WHERE status = 'running';
  `.execute(db);
}

/** Drops the instances and the retry deadline. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX jobs_running_locked_by;
    ALTER TABLE jobs DROP COLUMN retry_until;
    DROP TABLE worker_instances;
  `.execute(db);
}
