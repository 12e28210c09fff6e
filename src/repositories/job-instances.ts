import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { closeAbandonedTraces } from './abandoned-traces.ts';

/** A job worker process as it registers itself (host and pid tell a restart on the same machine it is gone). */
export interface WorkerInstance {
  id: string;
  host: string;
  pid: number;
}

/** Registers (or re-registers) a worker instance with a fresh heartbeat. */
export async function registerInstance(db: Kysely<Database>, instance: WorkerInstance, now: Date): Promise<void> {
  await db
    .insertInto('worker_instances')
    .values({ id: instance.id, host: instance.host, pid: instance.pid, started_at: now, heartbeat_at: now, stopped_at: null })
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ heartbeat_at: now, stopped_at: null }))
    .execute();
}

/** A heartbeat's answer: whether the instance still counts as running, and which others stopped lately. */
export interface HeartbeatAnswer {
  /** False when it was declared gone meanwhile (its jobs went to others). */
  alive: boolean;
  /** The other instances stopped (cleanly, or declared gone) at or after the time asked about. */
  stoppedSince: string[];
}

/**
 * Refreshes an instance's heartbeat and, in the same statement, names the other instances stopped since `since`: a
 * process stopped cleanly may leave a message it claimed and never handled, which the processes left take over.
 */
export async function heartbeat(db: Kysely<Database>, instanceId: string, now: Date, since: Date): Promise<HeartbeatAnswer> {
  const row = await db
    .updateTable('worker_instances')
    .set({ heartbeat_at: now })
    .where('id', '=', instanceId)
    .where('stopped_at', 'is', null)
    .returning(
      sql<string | null>`(select string_agg(other.id, ' ') from worker_instances as other where other.id <> ${instanceId} and other.stopped_at >= ${since})`.as(
        'stopped',
      ),
    )
    .executeTakeFirst();
  return { alive: row !== undefined, stoppedSince: row?.stopped ? row.stopped.split(' ') : [] };
}

/** Marks an instance stopped (a clean shutdown). */
export async function stopInstance(db: Kysely<Database>, instanceId: string, now: Date): Promise<void> {
  await db.updateTable('worker_instances').set({ stopped_at: now }).where('id', '=', instanceId).where('stopped_at', 'is', null).execute();
}

/** Instances still counted as running (not stopped), for a starting worker to check which are gone. */
export async function liveInstances(db: Kysely<Database>): Promise<(WorkerInstance & { heartbeatAt: Date })[]> {
  const rows = await db.selectFrom('worker_instances').select(['id', 'host', 'pid', 'heartbeat_at']).where('stopped_at', 'is', null).execute();
  return rows.map((row) => ({ id: row.id, host: row.host, pid: row.pid, heartbeatAt: row.heartbeat_at }));
}

/** What a reclaim took back from instances that are gone. */
export interface Reclaimed {
  /** Jobs put back to pending. */
  jobs: number;
  /** Traces they left open, now closed as cut short. */
  traces: number;
  /** The instances declared gone by this reclaim. */
  declared: string[];
}

/** How far a reclaim looks. */
export interface ReclaimOptions {
  /** Closes the traces left open by every instance ever declared gone, not only by those declared now (at start). */
  everyGoneInstance?: boolean;
}

/**
 * Declares gone the instances in `goneIds` and every other one whose heartbeat is older than `staleBefore`
 * (never `selfId`), puts the jobs they were running back to pending, due now, and closes the traces they left open.
 * A crash is not the job's failure, so the retry count stays.
 */
export async function reclaimAbandoned(
  db: Kysely<Database>,
  selfId: string,
  now: Date,
  staleBefore: Date,
  goneIds: string[] = [],
  options: ReclaimOptions = {},
): Promise<Reclaimed> {
  return db.transaction().execute(async (transaction) => {
    const declared = await transaction
      .updateTable('worker_instances')
      .set({ stopped_at: now })
      .where('id', '!=', selfId)
      .where('stopped_at', 'is', null)
      .where((eb) => eb.or([eb('heartbeat_at', '<', staleBefore), ...(goneIds.length > 0 ? [eb('id', 'in', goneIds)] : [])]))
      .returning('id')
      .execute();
    const stopped = sql`job.locked_by in (select instance.id from worker_instances instance where instance.stopped_at is not null and instance.id <> ${selfId})`;
    const jobs = await backToPending(transaction, stopped, now);
    await closeRuns(transaction, jobs, now, 'the worker running it stopped');
    // Traces are closed once, when their instance is declared gone (a clean stop ends its own): not on every heartbeat.
    const traces = declared.length > 0 || options.everyGoneInstance ? await closeAbandonedTraces(transaction) : 0;
    return { jobs: jobs.length, traces, declared: declared.map((instance) => instance.id) };
  });
}

/**
 * Puts back to pending, due now, the jobs `selfId` holds as running but does not know of (`knownIds`): a claim whose
 * answer a dropped connection lost (the statement committed, its reply never came), which would otherwise wait out its
 * lease (minutes: a room's deliveries stalled behind it). Their open runs are closed as abandoned. Returns their ids.
 */
export async function releaseLostClaims(db: Kysely<Database>, selfId: string, knownIds: readonly number[], now: Date): Promise<number[]> {
  return db.transaction().execute(async (transaction) => {
    const held = sql`job.locked_by = ${selfId} and not (job.id = any(${[...knownIds]}::bigint[]))`;
    const jobs = await backToPending(transaction, held, now);
    await closeRuns(transaction, jobs, now, 'its claim was lost to a dropped database connection');
    return jobs.map((job) => Number(job.id));
  });
}

async function closeRuns(transaction: Transaction<Database>, jobs: { id: number }[], now: Date, error: string): Promise<void> {
  if (jobs.length === 0) return;
  await transaction
    .updateTable('job_runs')
    .set({ finished_at: now, outcome: 'abandoned', error })
    .where(
      'job_id',
      'in',
      jobs.map((job) => job.id),
    )
    .where('finished_at', 'is', null)
    .execute();
}

/**
 * Puts the running jobs that `held` picks (of stopped instances, or claims their worker lost) back to pending, due
 * now. A job whose twin (same kind and dedupe key) is pending already, or is another of these jobs with a lower id, is
 * `superseded` instead: the twin does its work, and two pending twins would break the pending-dedupe index, failing
 * the whole reclaim (a worker that cannot reclaim claims nothing, for every session, at every start). Seen after kill -9 restarts: an idea-ledger pass was running
 * when its process died, and the next message queued the session's next pass meanwhile.
 */
async function backToPending(transaction: Transaction<Database>, held: RawBuilder<unknown>, now: Date): Promise<{ id: number }[]> {
  const result = await sql<{ id: number }>`
    with abandoned as (
      select job.id, job.kind, job.dedupe_key from jobs job
      where job.status = 'running' and ${held}
    ), decided as (
      select abandoned.id, abandoned.dedupe_key is not null and (
        exists (select 1 from jobs twin where twin.status = 'pending' and twin.kind = abandoned.kind and twin.dedupe_key = abandoned.dedupe_key)
        or exists (select 1 from abandoned earlier where earlier.kind = abandoned.kind and earlier.dedupe_key = abandoned.dedupe_key and earlier.id < abandoned.id)
      ) as superseded
      from abandoned
    )
    update jobs set
      status = case when decided.superseded then 'superseded' else 'pending' end,
      finished_at = case when decided.superseded then ${now}::timestamptz else null end,
      run_at = ${now}, locked_by = null, locked_until = null, updated_at = ${now}
    from decided where jobs.id = decided.id
    returning jobs.id`.execute(transaction);
  return result.rows;
}
