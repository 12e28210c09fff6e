import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { JobsRepository, type ClaimedJob, type NewJob } from '../../../src/repositories/jobs-repository.ts';
import { IDEA_LEDGER_JOB, IdeaLedgerService, type IdeaLedgerDependencies } from '../../../src/services/ideas/idea-ledger-service.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const SETTINGS = { intervalSeconds: 60, convergenceRounds: 0, duplicateSimilarity: 0.9, agreementThreshold: 0.8, roleRotationRounds: 0 };

/** The real jobs repository, counting the inserts the ledger sends. */
function countedJobs(jobs: JobsRepository) {
  let statements = 0;
  return {
    statements: () => statements,
    enqueueOnce: (job: NewJob & { dedupeKey: string }, now: Date) => {
      statements += 1;
      return jobs.enqueueOnce(job, now);
    },
    expedite: (...args: Parameters<JobsRepository['expedite']>) => {
      statements += 1;
      return jobs.expedite(...args);
    },
  };
}

/**
 * The ledger with only what `onMessage` touches (the clock, the settings and the jobs), and sessions it finds none
 * of, so a pass its job handler starts has nothing to do.
 */
function ledger(clock: ManualClock, jobs: Pick<IdeaLedgerDependencies, 'jobs'>['jobs'], settings = SETTINGS): IdeaLedgerService {
  const deps: Pick<IdeaLedgerDependencies, 'clock' | 'settings' | 'jobs' | 'sessions'> = {
    clock,
    settings: () => settings,
    jobs,
    sessions: { findById: async () => null },
  };
  return new IdeaLedgerService(deps as IdeaLedgerDependencies);
}

describe.each(ENGINES)('queueing the idea ledger pass on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;
  let clock: ManualClock;
  const pendingPasses = async () =>
    (
      await handle.db
        .selectFrom('jobs')
        .select(['dedupe_key', 'run_at'])
        .where('kind', '=', IDEA_LEDGER_JOB)
        .where('status', '=', 'pending')
        .orderBy('id')
        .execute()
    ).map((row) => [row.dedupe_key, new Date(row.run_at).toISOString()]);

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
    clock = new ManualClock('2026-05-01T09:00:00Z');
  });
  afterEach(async () => handle.close());

  it('sends no statement while the pending pass is ahead, and queues the next one once it is due', async () => {
    const counted = countedJobs(jobs);
    const ideas = ledger(clock, counted);
    await ideas.onMessage('s1');
    await clock.advance(10_000);
    await ideas.onMessage('s1');
    await ideas.onMessage('s1');
    expect(counted.statements()).toBe(1);
    await ideas.onMessage('s2');
    expect(await pendingPasses()).toEqual([
      ['s1', '2026-05-01T09:01:00.000Z'],
      ['s2', '2026-05-01T09:01:10.000Z'],
    ]);
    // A worker whose clock runs a second early takes s1's pass; close to its due time the insert is sent again.
    await clock.advance(49_000);
    const [claimed] = await jobs.claimDue('early-worker', new Date('2026-05-01T09:01:00Z'), 60_000, 1, [IDEA_LEDGER_JOB]);
    await jobs.complete(claimed!, clock.now());
    await ideas.onMessage('s1');
    expect(counted.statements()).toBe(3);
    expect((await pendingPasses())[1]).toEqual(['s1', '2026-05-01T09:01:59.000Z']);
  });

  it('learns when a pass another process queued is due, and sends nothing more until then', async () => {
    await jobs.enqueue({ kind: IDEA_LEDGER_JOB, dedupeKey: 's1', payload: { sessionId: 's1' }, runAt: new Date('2026-05-01T09:00:30Z') }, clock.now());
    const counted = countedJobs(jobs);
    const ideas = ledger(clock, counted);
    await ideas.onMessage('s1');
    await ideas.onMessage('s1');
    expect(counted.statements()).toBe(1);
    // Two seconds before that pass is due, a worker may take it: the next message is sent, and queues its own.
    await clock.advance(28_500);
    await ideas.onMessage('s1');
    expect(counted.statements()).toBe(2);
    expect(await pendingPasses()).toEqual([['s1', '2026-05-01T09:00:30.000Z']]);
  });

  it('an insert answered after this process started the pass is not remembered: the next message still queues one', async () => {
    let held: Promise<void> | null = null;
    let release: () => void = () => undefined;
    let calls = 0;
    const holding = {
      enqueueOnce: async (job: NewJob & { dedupeKey: string }, now: Date) => {
        calls += 1;
        const dueAt = await jobs.enqueueOnce(job, now);
        if (held) await held;
        return dueAt;
      },
      expedite: (...args: Parameters<JobsRepository['expedite']>) => jobs.expedite(...args),
    };
    const ideas = ledger(clock, holding);
    let handler: ((job: ClaimedJob, signal: AbortSignal) => Promise<unknown>) | null = null;
    ideas.registerJobs({ register: (_kind, handle) => (handler = handle) });
    await jobs.enqueue({ kind: IDEA_LEDGER_JOB, dedupeKey: 's1', payload: { sessionId: 's1' }, runAt: new Date('2026-05-01T09:00:30Z') }, clock.now());
    // A message's insert is answered (the pass pending at 09:00:30) only after the pass has started here.
    held = new Promise<void>((resolve) => (release = resolve));
    const inserted = ideas.onMessage('s1');
    const [claimed] = await jobs.claimDue('w1', new Date('2026-05-01T09:00:30Z'), 60_000, 1, [IDEA_LEDGER_JOB]);
    await handler!(claimed!, new AbortController().signal);
    release();
    held = null;
    await inserted;
    await clock.advance(1_000);
    await ideas.onMessage('s1');
    expect(calls).toBe(2);
    expect(await pendingPasses()).toEqual([['s1', '2026-05-01T09:01:01.000Z']]);
  });

  it('two messages stored at once leave it knowing the pending pass, whichever insert answers last', async () => {
    // A person's message and the end of a round, a few milliseconds apart: the first insert queues the pass, the
    // second is deduplicated and its answer arrives last (as it did under load).
    let secondStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));
    let first: Promise<void> = Promise.resolve();
    let calls = 0;
    const reordered = {
      enqueueOnce: async (job: NewJob & { dedupeKey: string }, now: Date) => {
        calls += 1;
        const call = calls;
        if (call === 2) secondStarted();
        const dueAt = await jobs.enqueueOnce(job, now);
        if (call === 1) await started;
        if (call === 2) await first;
        return dueAt;
      },
      expedite: (...args: Parameters<JobsRepository['expedite']>) => jobs.expedite(...args),
    };
    const ideas = ledger(clock, reordered);
    first = ideas.onMessage('s1');
    await clock.advance(5);
    await Promise.all([first, ideas.onMessage('s1')]);
    expect(calls).toBe(2);
    await clock.advance(1_000);
    await ideas.onMessage('s1');
    await ideas.onMessage('s1');
    expect(calls).toBe(2);
    expect(await pendingPasses()).toEqual([['s1', '2026-05-01T09:01:00.000Z']]);
  });

  it('moves the pending pass in when the interval was shortened, and sends nothing more once it is', async () => {
    const counted = countedJobs(jobs);
    const settings = { ...SETTINGS };
    const ideas = ledger(clock, counted, settings);
    await ideas.onMessage('s1');
    // `!config SCRIBE_UPDATE_INTERVAL 5`: the pass pending at 09:01:00 is now due five seconds after the next message.
    settings.intervalSeconds = 5;
    await clock.advance(1_000);
    await ideas.onMessage('s1');
    expect(await pendingPasses()).toEqual([['s1', '2026-05-01T09:00:06.000Z']]);
    const statements = counted.statements();
    await ideas.onMessage('s1');
    expect(counted.statements()).toBe(statements);
  });

  it('leaves a pass that is waiting out a failure where it is, however short the interval', async () => {
    const settings = { ...SETTINGS, intervalSeconds: 5 };
    const ideas = ledger(clock, jobs, settings);
    await ideas.onMessage('s1');
    // The pass fails (its model is down) and waits five minutes before its retry.
    await clock.advance(5_000);
    const [claimed] = await jobs.claimDue('w1', clock.now(), 60_000, 1, [IDEA_LEDGER_JOB]);
    await jobs.fail(claimed!, 'model unavailable', new Date('2026-05-01T09:05:05Z'), clock.now());
    await clock.advance(1_000);
    await ideas.onMessage('s1');
    expect(await pendingPasses()).toEqual([['s1', '2026-05-01T09:05:05.000Z']]);
  });
});
