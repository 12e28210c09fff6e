import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Cluster-wide figures for `/metrics`, read from the shared database at scrape time. */
export class MetricsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Jobs waiting to run, by kind: due now, and scheduled later. */
  async queueDepth(now: Date): Promise<{ kind: string; due: number; scheduled: number }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', sql<string>`count(*) FILTER (WHERE run_at <= ${now})`.as('due'), sql<string>`count(*) FILTER (WHERE run_at > ${now})`.as('scheduled')])
      .where('status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .groupBy('kind')
      .execute();
    return rows.map((row) => ({ kind: row.kind, due: Number(row.due), scheduled: Number(row.scheduled) }));
  }

  /** Failed job attempts since the database began, by kind and outcome (`retry`: tried again; `failed`: for good). */
  async jobFailures(): Promise<{ kind: string; outcome: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('job_runs')
      .innerJoin('jobs', 'jobs.id', 'job_runs.job_id')
      .select(['jobs.kind', 'job_runs.outcome', (eb) => eb.fn.countAll<string>().as('count')])
      .where('job_runs.outcome', 'in', ['retry', 'failed'])
      .groupBy(['jobs.kind', 'job_runs.outcome'])
      .execute();
    return rows.map((row) => ({ kind: row.kind, outcome: row.outcome ?? 'failed', count: Number(row.count) }));
  }

  /** Sessions by status (soft-deleted ones left out). */
  async sessionsByStatus(): Promise<{ status: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
      .where('deleted_at', 'is', null)
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  }
}
