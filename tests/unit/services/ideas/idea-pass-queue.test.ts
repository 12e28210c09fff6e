import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { NewJob } from '../../../../src/repositories/jobs-repository.ts';
import { IDEA_LEDGER_JOB, IdeaLedgerService, type IdeaLedgerDependencies } from '../../../../src/services/ideas/idea-ledger-service.ts';

/** A jobs table with the dedupe rule of `JobsRepository.enqueue`: one pending job per kind and key. */
function jobsTable() {
  const pending = new Map<string, NewJob>();
  const inserts: NewJob[] = [];
  let statements = 0;
  return {
    inserts,
    statements: () => statements,
    /** Another worker claims the pending job (it is no longer pending). */
    claim: (key: string) => pending.delete(key),
    enqueue: async (job: NewJob): Promise<number | null> => {
      statements += 1;
      const key = job.dedupeKey ?? '';
      if (pending.has(key)) return null;
      pending.set(key, job);
      inserts.push(job);
      return inserts.length;
    },
  };
}

function service(clock: ManualClock, jobs: ReturnType<typeof jobsTable>): IdeaLedgerService {
  const settings = { intervalSeconds: 60, convergenceRounds: 0, duplicateSimilarity: 0.9, agreementThreshold: 0.8, roleRotationRounds: 0 };
  // Only what `onMessage` touches: the clock, the settings and the jobs table.
  return new IdeaLedgerService({ clock, settings: () => settings, jobs } as unknown as IdeaLedgerDependencies);
}

describe('queueing the idea ledger pass', () => {
  it('sends no statement while the pass it queued is ahead, and queues the next one once it is due', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const jobs = jobsTable();
    const ideas = service(clock, jobs);
    await ideas.onMessage('s1');
    await clock.advance(10_000);
    await ideas.onMessage('s1');
    await ideas.onMessage('s1');
    expect(jobs.statements()).toBe(1);
    expect(jobs.inserts.map((job) => [job.kind, job.dedupeKey, job.runAt.toISOString()])).toEqual([[IDEA_LEDGER_JOB, 's1', '2026-05-01T09:01:00.000Z']]);
    // Another session has a pass of its own.
    await ideas.onMessage('s2');
    expect(jobs.inserts).toHaveLength(2);
    // Close to its due time a worker (whose clock may run early) can take it: from then on the insert is sent.
    await clock.advance(49_000);
    jobs.claim('s1');
    await ideas.onMessage('s1');
    expect(jobs.inserts.map((job) => job.runAt.toISOString())).toEqual(['2026-05-01T09:01:00.000Z', '2026-05-01T09:01:10.000Z', '2026-05-01T09:01:59.000Z']);
  });

  it('keeps sending while the pending pass is another process’s (its due time is unknown here)', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const jobs = jobsTable();
    await jobs.enqueue({ kind: IDEA_LEDGER_JOB, dedupeKey: 's1', payload: {}, runAt: clock.now() });
    const ideas = service(clock, jobs);
    await ideas.onMessage('s1');
    await ideas.onMessage('s1');
    expect(jobs.statements()).toBe(3);
    // Once it is taken, the next message queues a pass of this process's: the one after it sends nothing.
    jobs.claim('s1');
    await ideas.onMessage('s1');
    await ideas.onMessage('s1');
    expect(jobs.statements()).toBe(4);
    expect(jobs.inserts).toHaveLength(2);
  });
});
