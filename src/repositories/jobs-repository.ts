import { sql, type Kysely } from 'kysely';
import { toJson, type Database, type JobRow } from '../db/schema.ts';

/** A job to enqueue. `dedupeKey` makes enqueueing idempotent while one is pending; `queue` orders jobs. */
export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  dedupeKey?: string | null;
  queue?: string | null;
  sessionId?: string | null;
  maxRetries?: number;
  /** Until this time a failure is retried whatever `maxRetries` says (document jobs ride out long outages). */
  retryUntil?: Date | null;
}

/** A claimed job, leased to one worker until `lockedUntil`. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  sessionId: string | null;
  retryCount: number;
  maxRetries: number;
  retryUntil: Date | null;
  runId: number;
}

/** A job worker process as it registers itself (host and pid tell a restart on the same machine it is gone). */
export interface WorkerInstance {
  id: string;
  host: string;
  pid: number;
}

const DEFAULT_MAX_RETRIES = 5;

/** The outbox and timers: jobs and their runs. */
export class JobsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a job unless one with the same kind and dedupe key is pending. Returns its id, or null if deduplicated. */
  async enqueue(job: NewJob, now: Date): Promise<number | null> {
    const row = await this.db
      .insertInto('jobs')
      .values({
        kind: job.kind,
        dedupe_key: job.dedupeKey ?? null,
        queue: job.queue ?? null,
        session_id: job.sessionId ?? null,
        payload: toJson(job.payload),
        status: 'pending',
        run_at: job.runAt,
        max_retries: job.maxRetries ?? DEFAULT_MAX_RETRIES,
        retry_until: job.retryUntil ?? null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(['kind', 'dedupe_key']).where('status', '=', 'pending').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Moves a pending deduplicated job earlier (e.g. an urgent Scribe pass); never later. */
  async expedite(kind: string, dedupeKey: string, runAt: Date, now: Date): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ run_at: runAt, updated_at: now })
      .where('kind', '=', kind)
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'pending')
      .where('run_at', '>', runAt)
      .execute();
  }

  /**
   * A trailing debounce: moves a pending deduplicated job to `runAt` (earlier or later), but never beyond
   * `maxDelayMs` after it was first queued, so a steady stream of triggers cannot postpone it for ever.
   */
  async debounce(kind: string, dedupeKey: string, runAt: Date, maxDelayMs: number, now: Date): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ run_at: sql<Date>`least(${runAt}::timestamptz, created_at + ${maxDelayMs} * interval '1 millisecond')`, updated_at: now })
      .where('kind', '=', kind)
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Claims up to `limit` due jobs for `workerId`: pending ones whose time has come, and running ones whose
   * lease expired (a crashed worker). A job in a queue is claimed only when no earlier job of that queue is
   * unfinished, so deliveries to one room keep their order.
   */
  async claimDue(workerId: string, now: Date, leaseMs: number, limit: number, kinds?: string[], queue?: string): Promise<ClaimedJob[]> {
    // One statement (pick, lease, record the run): a worker polls often, and each round trip holds the connection.
    let due = this.db
      .selectFrom('jobs as job')
      .select(['job.id'])
      .where('job.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('job.status', '=', 'pending'), eb('job.run_at', '<=', now)]),
          eb.and([eb('job.status', '=', 'running'), eb('job.locked_until', '<', now)]),
        ]),
      )
      .where((eb) =>
        eb.or([
          eb('job.queue', 'is', null),
          eb.not(
            eb.exists(
              eb
                .selectFrom('jobs as earlier')
                .select(sql`1`.as('one'))
                .whereRef('earlier.queue', '=', 'job.queue')
                .whereRef('earlier.id', '<', 'job.id')
                .where('earlier.status', 'in', ['pending', 'running'])
                .where('earlier.deleted_at', 'is', null),
            ),
          ),
        ]),
      );
    if (kinds && kinds.length > 0) due = due.where('job.kind', 'in', kinds);
    if (queue) due = due.where('job.queue', '=', queue);
    const rows = await this.db
      .with('picked', () => due.orderBy('job.run_at').orderBy('job.id').limit(limit).forUpdate().skipLocked())
      .with('claimed', (db) =>
        db
          .updateTable('jobs')
          .from('picked')
          .set({ status: 'running', locked_by: workerId, locked_until: new Date(now.getTime() + leaseMs), updated_at: now })
          .whereRef('jobs.id', '=', 'picked.id')
          .returning(['jobs.id', 'jobs.kind', 'jobs.payload', 'jobs.session_id', 'jobs.retry_count', 'jobs.max_retries', 'jobs.retry_until', 'jobs.run_at']),
      )
      .with('runs', (db) =>
        db
          .insertInto('job_runs')
          .columns(['job_id', 'attempt', 'worker_id', 'started_at'])
          .expression((eb) =>
            eb
              .selectFrom('claimed')
              .select([
                'claimed.id',
                sql<number>`claimed.retry_count + 1`.as('attempt'),
                sql<string>`${workerId}::text`.as('worker_id'),
                sql<Date>`${now}::timestamptz`.as('started_at'),
              ]),
          )
          .returning(['job_runs.id', 'job_runs.job_id']),
      )
      .selectFrom('claimed')
      .innerJoin('runs', 'runs.job_id', 'claimed.id')
      .select([
        'claimed.id',
        'claimed.kind',
        'claimed.payload',
        'claimed.session_id',
        'claimed.retry_count',
        'claimed.max_retries',
        'claimed.retry_until',
        'runs.id as run_id',
      ])
      .orderBy('claimed.run_at')
      .orderBy('claimed.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      payload: row.payload,
      sessionId: row.session_id,
      retryCount: row.retry_count,
      maxRetries: row.max_retries,
      retryUntil: row.retry_until,
      runId: row.run_id,
    }));
  }

  /** Extends a running job's lease (long work refreshes it well before it expires). */
  async extendLease(jobId: number, workerId: string, lockedUntil: Date, now: Date): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ locked_until: lockedUntil, updated_at: now })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .execute();
  }

  /** Marks a job done. */
  async complete(job: ClaimedJob, now: Date): Promise<void> {
    // Both rows in one statement: atomic like a transaction, in one round trip instead of four.
    await this.db
      .with('finished', (db) =>
        db.updateTable('jobs').set({ status: 'done', finished_at: now, updated_at: now, locked_until: null }).where('id', '=', job.id).returning('id'),
      )
      .updateTable('job_runs')
      .set({ finished_at: now, outcome: 'succeeded' })
      .where('id', '=', job.runId)
      .execute();
  }

  /**
   * Records a failure: reschedules at `retryAt`, or fails it for good when retries are used up (the count, or
   * the job's `retryUntil` deadline when it has one). Returns true when terminal.
   */
  async fail(job: ClaimedJob, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
    const retryCount = job.retryCount + 1;
    const exhausted = job.retryUntil ? (retryAt ?? now).getTime() > job.retryUntil.getTime() : retryCount >= job.maxRetries;
    const terminal = retryAt === null || exhausted;
    await this.db
      .with('failed', (db) =>
        db
          .updateTable('jobs')
          .set({
            status: terminal ? 'failed' : 'pending',
            retry_count: retryCount,
            last_error: error.slice(0, 2000),
            run_at: terminal ? now : (retryAt ?? now),
            locked_until: null,
            locked_by: null,
            finished_at: terminal ? now : null,
            updated_at: now,
          })
          .where('id', '=', job.id)
          .returning('id'),
      )
      .updateTable('job_runs')
      .set({ finished_at: now, outcome: terminal ? 'failed' : 'retry', error: error.slice(0, 2000) })
      .where('id', '=', job.runId)
      .execute();
    return terminal;
  }

  /** Puts a job back to pending at `runAt` without counting a failure (e.g. a rate limit asked us to wait). */
  async postpone(job: ClaimedJob, runAt: Date, now: Date): Promise<void> {
    await this.db
      .with('postponed', (db) =>
        db
          .updateTable('jobs')
          .set({ status: 'pending', run_at: runAt, locked_until: null, locked_by: null, updated_at: now })
          .where('id', '=', job.id)
          .returning('id'),
      )
      .updateTable('job_runs')
      .set({ finished_at: now, outcome: 'postponed' })
      .where('id', '=', job.runId)
      .execute();
  }

  /** Registers (or re-registers) a worker instance with a fresh heartbeat. */
  async registerInstance(instance: WorkerInstance, now: Date): Promise<void> {
    await this.db
      .insertInto('worker_instances')
      .values({ id: instance.id, host: instance.host, pid: instance.pid, started_at: now, heartbeat_at: now, stopped_at: null })
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ heartbeat_at: now, stopped_at: null }))
      .execute();
  }

  /** Refreshes an instance's heartbeat; false when it was declared gone meanwhile (its jobs went to others). */
  async heartbeat(instanceId: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('worker_instances')
      .set({ heartbeat_at: now })
      .where('id', '=', instanceId)
      .where('stopped_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks an instance stopped (a clean shutdown). */
  async stopInstance(instanceId: string, now: Date): Promise<void> {
    await this.db.updateTable('worker_instances').set({ stopped_at: now }).where('id', '=', instanceId).where('stopped_at', 'is', null).execute();
  }

  /** Instances still counted as running (not stopped), for a starting worker to check which are gone. */
  async liveInstances(): Promise<(WorkerInstance & { heartbeatAt: Date })[]> {
    const rows = await this.db.selectFrom('worker_instances').select(['id', 'host', 'pid', 'heartbeat_at']).where('stopped_at', 'is', null).execute();
    return rows.map((row) => ({ id: row.id, host: row.host, pid: row.pid, heartbeatAt: row.heartbeat_at }));
  }

  /**
   * Declares gone the instances in `goneIds` and every other one whose heartbeat is older than `staleBefore`
   * (never `selfId`), and puts the jobs they were running back to pending, due now. A crash is not the job's
   * failure, so the retry count stays. Returns how many jobs came back.
   */
  async reclaimAbandoned(selfId: string, now: Date, staleBefore: Date, goneIds: string[] = []): Promise<number> {
    return this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('worker_instances')
        .set({ stopped_at: now })
        .where('id', '!=', selfId)
        .where('stopped_at', 'is', null)
        .where((eb) => eb.or([eb('heartbeat_at', '<', staleBefore), ...(goneIds.length > 0 ? [eb('id', 'in', goneIds)] : [])]))
        .execute();
      const stopped = transaction.selectFrom('worker_instances').select('id').where('stopped_at', 'is not', null).where('id', '!=', selfId);
      const jobs = await transaction
        .updateTable('jobs')
        .set({ status: 'pending', run_at: now, locked_by: null, locked_until: null, updated_at: now })
        .where('status', '=', 'running')
        .where('locked_by', 'in', stopped)
        .returning('id')
        .execute();
      if (jobs.length > 0) {
        await transaction
          .updateTable('job_runs')
          .set({ finished_at: now, outcome: 'abandoned', error: 'the worker running it stopped' })
          .where(
            'job_id',
            'in',
            jobs.map((job) => job.id),
          )
          .where('finished_at', 'is', null)
          .execute();
      }
      return jobs.length;
    });
  }

  /** Cancels the pending jobs of a session (optionally of some kinds), e.g. when it ends. */
  async cancelPending(sessionId: string, kinds: string[] | null, now: Date): Promise<number> {
    let query = this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', finished_at: now, updated_at: now })
      .where('session_id', '=', sessionId)
      .where('status', '=', 'pending');
    if (kinds) query = query.where('kind', 'in', kinds);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The earliest time a pending job is due, for a worker to sleep until. */
  async nextDueAt(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .where('status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.next ? new Date(row.next as unknown as string) : null;
  }

  /** Jobs of a session, newest first (console and tests). */
  async listForSession(sessionId: string): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('session_id', '=', sessionId).orderBy('id', 'desc').execute();
  }

  /** Jobs by kind and status (console, tests). */
  async countByStatus(kind?: string): Promise<Record<string, number>> {
    let query = this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status');
    if (kind) query = query.where('kind', '=', kind);
    const rows = await query.execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }
}
