/** How a claimed job ends: done, failed (retried or for good), or put back to wait; its run row closed with it. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { clipText } from '../core/text-clip.ts';
import type { ClaimedJob } from './job-claims.ts';

/**
 * The status of a running job put back to pending (a retry, a postponement): `superseded` when a twin (same kind and
 * dedupe key) was queued while it ran, as the twin does its work, and two pending twins would break the pending-dedupe
 * index (the statement would fail, and the job stay running until its lease ran out). Never the job itself: a worker
 * declared gone (a database outage outlasted its heartbeat) settles a job that was put back to pending meanwhile.
 */
function pendingUnlessTwin() {
  return sql<string>`case when jobs.dedupe_key is not null and exists (
    select 1 from jobs twin where twin.status = 'pending' and twin.kind = jobs.kind and twin.dedupe_key = jobs.dedupe_key and twin.id <> jobs.id
  ) then 'superseded' else 'pending' end`;
}

/** Every job's last statement: prepared once (see PreparedStatement). */
const COMPLETE = new PreparedStatement(
  'complete a job',
  (db: Kysely<Database>, { job, now }: { job: ClaimedJob; now: Date }) =>
    db
      .with('finished', (creator) =>
        creator.updateTable('jobs').set({ status: 'done', finished_at: now, updated_at: now, locked_until: null }).where('id', '=', job.id).returning('id'),
      )
      .updateTable('job_runs')
      .set({ finished_at: now, outcome: 'succeeded' })
      .where('id', '=', job.runId),
  ({ job, now }) => ['done', now, now, null, job.id, now, 'succeeded', job.runId],
);

/** Marks a job done. */
export async function completeJob(db: Kysely<Database>, job: ClaimedJob, now: Date): Promise<void> {
  // Both rows in one statement: atomic like a transaction, in one round trip instead of four.
  await COMPLETE.execute(db, { job, now });
}

/**
 * Records a failure: reschedules at `retryAt`, or fails it for good when retries are used up (the count, or the job's
 * `retryUntil` deadline when it has one). Returns true when terminal.
 */
export async function failJob(db: Kysely<Database>, job: ClaimedJob, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
  const retryCount = job.retryCount + 1;
  const exhausted = job.retryUntil ? (retryAt ?? now).getTime() > job.retryUntil.getTime() : retryCount >= job.maxRetries;
  const terminal = retryAt === null || exhausted;
  await db
    .with('failed', (db) =>
      db
        .updateTable('jobs')
        .set({
          status: terminal ? 'failed' : pendingUnlessTwin(),
          retry_count: retryCount,
          last_error: clipText(error, 2000),
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
    .set({ finished_at: now, outcome: terminal ? 'failed' : 'retry', error: clipText(error, 2000) })
    .where('id', '=', job.runId)
    .execute();
  return terminal;
}

/** Puts a job back to pending at `runAt` without counting a failure (e.g. a rate limit asked us to wait). */
export async function postponeJob(db: Kysely<Database>, job: ClaimedJob, runAt: Date, now: Date): Promise<void> {
  await db
    .with('postponed', (db) =>
      db
        .updateTable('jobs')
        .set({ status: pendingUnlessTwin(), run_at: runAt, locked_until: null, locked_by: null, updated_at: now })
        .where('id', '=', job.id)
        .returning('id'),
    )
    .updateTable('job_runs')
    .set({ finished_at: now, outcome: 'postponed' })
    .where('id', '=', job.runId)
    .execute();
}
