import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { ClaimedJob, NewJob } from '../../../../src/repositories/jobs-repository.ts';
import { HOUSEKEEPING_JOB, Housekeeping } from '../../../../src/services/jobs/housekeeping.ts';

function housekeepingWith(failVacuum = false, keepTracesMs = 2 * 3_600_000) {
  const clock = new ManualClock(new Date('2026-03-02T10:00:00Z'));
  const calls: string[] = [];
  const queued: (NewJob & { dedupeKey: string })[] = [];
  const housekeeping = new Housekeeping({
    clock,
    logger: pino({ level: 'silent' }),
    jobs: {
      async enqueueOnce(job) {
        queued.push(job);
        return job.runAt;
      },
    },
    maintenance: {
      async deleteFinishedJobs(before, limit) {
        calls.push(`delete before ${before.toISOString()} up to ${limit}`);
        return 3;
      },
      async deleteStoppedProcesses(before, limit) {
        calls.push(`delete processes stopped before ${before.toISOString()} up to ${limit}`);
        return { claims: 4, processes: 1 };
      },
      async deleteSpentRunStates(before, limit) {
        calls.push(`delete spent runs before ${before.toISOString()} up to ${limit}`);
        return 1;
      },
      async vacuum() {
        calls.push('vacuum');
        if (failVacuum) throw new Error('disk full');
        return true;
      },
    },
    traces: {
      async deleteOlderThan(cutoff, limit) {
        calls.push(`delete traces before ${cutoff.toISOString()} up to ${limit}`);
        return 2;
      },
    },
    options: {
      intervalMs: 60_000,
      keepFinishedJobsMs: 3_600_000,
      batch: 10,
      keepTracesMs,
      traceBatch: 5,
      keepStoppedProcessesMs: 86_400_000,
      keepSpentRunsMs: 7_200_000,
    },
  });
  return { housekeeping, calls, queued, clock };
}

describe('Housekeeping', () => {
  it('deletes jobs, traces, stopped processes and spent paused runs older than they are kept, vacuums, and queues its next run one interval on', async () => {
    const { housekeeping, calls, queued } = housekeepingWith();
    expect(await housekeeping.run()).toEqual({ status: 'done' });
    expect(calls).toEqual([
      'delete before 2026-03-02T09:00:00.000Z up to 10',
      'delete traces before 2026-03-02T08:00:00.000Z up to 5',
      'delete processes stopped before 2026-03-01T10:00:00.000Z up to 10',
      'delete spent runs before 2026-03-02T08:00:00.000Z up to 10',
      'vacuum',
    ]);
    expect(queued).toEqual([expect.objectContaining({ kind: HOUSEKEEPING_JOB, dedupeKey: HOUSEKEEPING_JOB, runAt: new Date('2026-03-02T10:01:00Z') })]);
  });

  it('keeps every trace when their retention is 0', async () => {
    const { housekeeping, calls } = housekeepingWith(false, 0);
    await housekeeping.run();
    expect(calls.some((call) => call.startsWith('delete traces'))).toBe(false);
  });

  it('has its next run queued even when this one fails (the worker retries this one)', async () => {
    const { housekeeping, queued } = housekeepingWith(true);
    await expect(housekeeping.run()).rejects.toThrow('disk full');
    expect(queued).toHaveLength(1);
  });

  it('registers its handler under its own job kind', async () => {
    const { housekeeping, calls } = housekeepingWith();
    const job: ClaimedJob = {
      id: 1,
      kind: HOUSEKEEPING_JOB,
      payload: {},
      sessionId: null,
      retryCount: 0,
      maxRetries: 3,
      retryUntil: null,
      runId: 1,
      queue: null,
      hasSuccessor: false,
      firstRun: true,
    };
    const handlers = new Map<string, () => Promise<unknown>>();
    housekeeping.registerJobs({ register: (kind, handler) => handlers.set(kind, () => handler(job, new AbortController().signal)) });
    await handlers.get(HOUSEKEEPING_JOB)?.();
    expect(calls).toContain('vacuum');
  });

  it('checkpoints embedded PGlite after its vacuum, and a failed checkpoint waits for the next run instead of failing this one', async () => {
    const calls: string[] = [];
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(String(JSON.parse(line).msg)) });
    const housekeeping = new Housekeeping({
      clock: new ManualClock(new Date('2026-03-02T10:00:00Z')),
      logger,
      jobs: { enqueueOnce: async (job) => job.runAt },
      maintenance: {
        deleteFinishedJobs: async () => 0,
        deleteStoppedProcesses: async () => ({ claims: 0, processes: 0 }),
        deleteSpentRunStates: async () => 0,
        vacuum: async () => Boolean(calls.push('vacuum')),
      },
      traces: { deleteOlderThan: async () => 0 },
      checkpoints: {
        async checkpointIfDue() {
          calls.push('checkpoint');
          throw new Error('disk full');
        },
      },
    });
    expect(await housekeeping.run()).toEqual({ status: 'done' });
    expect(calls).toEqual(['vacuum', 'checkpoint']);
    expect(warnings).toEqual(['could not checkpoint the embedded database; the next housekeeping tries again']);
  });
});
