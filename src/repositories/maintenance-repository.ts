import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The tables whose rows change all day (a job is written three times, a lease every few seconds, a span when it starts
 * and when it ends, a preview row lives while its answer streams): every change leaves a dead row version and, where an
 * indexed column changed, a dead index entry that each scan of that index still reads. Deleted rows too (old jobs,
 * traces past `TRACE_RETENTION_DAYS`): until a vacuum marks their space free, new rows never take it, so on PGlite a
 * table that deletes as much as it adds grew as if it deleted nothing (10,000 span rows: 10 MB, 30 MB after ten rounds
 * of deleting and adding 2,000). A minute's vacuum of `spans` takes a few ms; its first, on a table a bot filled before
 * this release, reads it all once (0.4 s for 170 MB here).
 * Not `messages`: a message changes about once (delivered), so it leaves one dead version, which its page reclaims by
 * itself, and one dead entry in each index (its change stamp, `changed_xid`, is indexed since migration 0025), which
 * the first index scan to pass it marks dead. No message row is deleted (a removed message is marked): nothing there
 * waits for a vacuum to free it, and the first vacuum would read the whole table for that little.
 */
const CHURNING_TABLES = [
  'jobs',
  'job_runs',
  'session_leases',
  'sessions',
  'worker_instances',
  'inbound_claims',
  'spans',
  'traces',
  'stream_previews',
  'run_states',
] as const;

/** Keeping the database as fast on its hundredth day as on its first. */
export class MaintenanceRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Which engine: PGlite has no autovacuum and no checkpointer, so this repository does their work there. */
    readonly engine: 'postgres' | 'pglite',
    /** Statements nobody waits on: on PGlite's one connection they yield to every waiting turn statement. */
    private readonly background: Kysely<Database> = db,
  ) {}

  /**
   * Bytes of write-ahead log written since the redo point of the last checkpoint, on PGlite (see
   * services/jobs/pglite-checkpoints.ts); null on a Postgres server, which checkpoints itself.
   */
  async logSinceCheckpoint(): Promise<number | null> {
    if (this.engine !== 'pglite') return null;
    const { rows } = await sql<{ bytes: number }>`
      select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 as bytes from pg_control_checkpoint()`.execute(this.background);
    return Number(rows[0]?.bytes ?? 0);
  }

  /** A checkpoint of embedded PGlite; false (nothing done) on a Postgres server. */
  async checkpoint(): Promise<boolean> {
    if (this.engine !== 'pglite') return false;
    await sql`checkpoint`.execute(this.background);
    return true;
  }

  /**
   * Deletes up to `limit` jobs that ended before `before` (done, cancelled, or superseded by a twin), with their runs.
   * A job with a failed or retried run is kept: the failures `/metrics` counts never go down. Returns how many went.
   * Cancelled and superseded jobs were kept for ever before: two or three a session (its timeouts, cancelled when it
   * ended or was approved).
   */
  async deleteFinishedJobs(before: Date, limit: number): Promise<number> {
    const { rows } = await sql<{ deleted: number }>`
      with old as (
        select job.id from jobs as job
        -- A job ends at or after its run_at: the (status, run_at) index finds the old ones, or at once none. A job
        -- superseded as it was put back to wait has no finished_at: its last change is when it ended.
        where job.status in ('done', 'cancelled', 'superseded') and job.run_at < ${before}
          and coalesce(job.finished_at, job.updated_at) < ${before}
          and not exists (select 1 from job_runs as run where run.job_id = job.id and run.outcome in ('retry', 'failed'))
        order by job.id
        limit ${limit}
      ),
      old_runs as (delete from job_runs where job_id in (select id from old)),
      -- Both deletes run whether referenced or not; the runs' references are checked at the statement's end, gone by then.
      old_jobs as (delete from jobs where id in (select id from old) returning id)
      select count(*)::int as deleted from old_jobs`.execute(this.db);
    return Number(rows[0]?.deleted ?? 0);
  }

  /**
   * Deletes up to `limit` claims of people's messages made before `before`, or made by processes stopped before it, then
   * the rows of those processes none of whose claims is left. Each process start adds a row and each message a claim,
   * kept for ever before (a process that runs for months kept every claim it made). A claim keeps a message from being
   * acted on twice while a catch-up may read it again: only after the read cursor its claim moved (the cursor is past
   * every claimed message of its channel), or from an unsettled claim made in the last hour of a process stopped within
   * a day; never a message a month old. Every other table keyed by a process is done with it long before: its leases
   * lapsed, its jobs reclaimed, its traces and previews closed.
   */
  async deleteStoppedProcesses(before: Date, limit: number): Promise<{ claims: number; processes: number }> {
    // The claims are found by their claimant's index (claimed_by, claimed_at), a range per process (all of a process
    // stopped before the cutoff, the older part of any other's), the claimant-less ones (claimed before migration 0027
    // named claimants) by its null entries and their age: no scan of the whole table either way.
    const { rows } = await sql<{ deleted: number }>`
      with old as (
        select * from (
          (select claim.transport, claim.external_id from worker_instances as instance
          cross join lateral (
            select transport, external_id from inbound_claims
            where inbound_claims.claimed_by = instance.id
              and inbound_claims.claimed_at < (case when instance.stopped_at < ${before} then 'infinity'::timestamptz else ${before}::timestamptz end)
            limit ${limit}
          ) as claim
          limit ${limit})
          union all
          (select claim.transport, claim.external_id from inbound_claims as claim
          where claim.claimed_by is null and claim.claimed_at < ${before}
          limit ${limit})
        ) as either limit ${limit}
      ),
      deleted as (
        delete from inbound_claims as claim using old
        where claim.transport = old.transport and claim.external_id = old.external_id
        returning 1
      )
      select count(*)::int as deleted from deleted`.execute(this.background);
    const processes = await this.background
      .deleteFrom('worker_instances')
      .where('stopped_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('inbound_claims').select('transport').whereRef('inbound_claims.claimed_by', '=', 'worker_instances.id'))),
      )
      .executeTakeFirst();
    return { claims: Number(rows[0]?.deleted ?? 0), processes: Number(processes.numDeletedRows) };
  }

  /**
   * Deletes up to `limit` paused runs last changed before `before` that no approval can take any more: resumed,
   * superseded by a newer plan, or still waiting in a session no longer awaiting approval (ended, or approved another
   * way). Each is a whole serialised run; a plan waiting for its approval stays however old.
   */
  async deleteSpentRunStates(before: Date, limit: number): Promise<number> {
    const result = await this.background
      .deleteFrom('run_states')
      .where('id', 'in', (query) =>
        query
          .selectFrom('run_states as run')
          .innerJoin('sessions', 'sessions.id', 'run.session_id')
          .select('run.id')
          .where('run.updated_at', '<', before)
          .where((where) => where.or([where('run.status', '!=', 'waiting'), where('sessions.status', '!=', 'awaiting_approval')]))
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Reclaims dead row versions of the churning tables (and updates their row counts for the planner). Embedded PGlite
   * runs no autovacuum: without this its job claims read more dead index entries every hour (a claim took 1.6 ms after
   * 30 s of a 500-session load). A Postgres server's autovacuum does this itself: nothing to do there. No ANALYZE: PGlite
   * keeps planning as it always has, without column statistics. With them, two runs of `npm run bench -- memory` held
   * 395-401 MB after the burst against 305-309 with a plain vacuum; that figure moves by up to 100 MB between runs, so
   * this is a precaution more than a measured cost.
   */
  async vacuum(): Promise<boolean> {
    if (this.engine !== 'pglite') return false;
    await sql`vacuum ${sql.raw(CHURNING_TABLES.join(', '))}`.execute(this.db);
    return true;
  }
}
