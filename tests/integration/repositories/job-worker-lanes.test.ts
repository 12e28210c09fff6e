/**
 * The job worker's lanes, with the app's own (JOB_LANES): a room's answers are posted while every slot of the records
 * lane is held by a Scribe or ledger pass waiting on its model, and the Planner's steps do not wait for either.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_LANES } from '../../../src/composition/job-lanes.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { JobsRepository, type ClaimedJob } from '../../../src/repositories/jobs-repository.ts';
import { DELIVER_MESSAGE_JOB, roomQueue } from '../../../src/services/delivery/delivery-service.ts';
import { DOCUMENTATION_JOB_KINDS } from '../../../src/services/documentation/documentation-types.ts';
import { IDEA_LEDGER_JOB } from '../../../src/services/ideas/idea-ledger-service.ts';
import { JobWorker } from '../../../src/services/jobs/job-worker.ts';
import { PLANNER_STEP_JOB } from '../../../src/services/sessions/planner-job-kinds.ts';
import { openTestDatabase } from '../../support/databases.ts';

const logger = createLogger({ level: 'silent', secrets: [] });

/** The real repository, counting the claims sent and the kinds each asked for. */
class CountingJobs extends JobsRepository {
  claims: (string[] | undefined)[] = [];

  override claimDue(...args: Parameters<JobsRepository['claimDue']>): Promise<ClaimedJob[]> {
    this.claims.push(args[4]);
    return super.claimDue(...args);
  }
}
const RECORDS = JOB_LANES.find((lane) => lane.name === 'records')!;
const ROOMS = JOB_LANES.find((lane) => lane.name === 'rooms')!;

describe('a job worker with the app lanes', () => {
  let handle: DatabaseHandle;
  let jobs: CountingJobs;
  let clock: ManualClock;
  let worker: JobWorker;
  let release: () => void;
  let modelAnswers: Promise<void>;
  /** Passes waiting on their model now, and the most that ever waited at once. */
  const passes = { waiting: 0, most: 0 };
  const ran: string[] = [];

  beforeEach(async () => {
    handle = await openTestDatabase('pglite');
    jobs = new CountingJobs(handle.db);
    clock = new ManualClock();
    modelAnswers = new Promise<void>((resolve) => (release = resolve));
    Object.assign(passes, { waiting: 0, most: 0 });
    ran.length = 0;
    worker = new JobWorker({ workerId: 'worker-1', jobs, clock, logger, pollMs: 600_000, lanes: JOB_LANES });
    const pass = async () => {
      passes.waiting += 1;
      passes.most = Math.max(passes.most, passes.waiting);
      await modelAnswers;
      passes.waiting -= 1;
      return { status: 'done' } as const;
    };
    for (const kind of [DOCUMENTATION_JOB_KINDS.scribe, IDEA_LEDGER_JOB]) worker.register(kind, pass);
    for (const kind of [DELIVER_MESSAGE_JOB, PLANNER_STEP_JOB])
      worker.register(kind, async (job) => {
        ran.push(String(job.payload.text));
        return { status: 'done' };
      });
    await worker.start();
  });
  afterEach(async () => {
    release();
    await worker.stop();
    await handle.close();
  });

  const enqueue = (kind: string, text: string, queue: string | null = null) =>
    jobs.enqueue({ kind, payload: { text }, runAt: clock.now(), ...(queue ? { queue } : {}) }, clock.now());

  it("posts a room's answers and runs the Planner's step while every records slot waits on a model", async () => {
    for (let session = 0; session < RECORDS.concurrency + 2; session += 1) {
      await enqueue(session % 2 === 0 ? DOCUMENTATION_JOB_KINDS.scribe : IDEA_LEDGER_JOB, `pass ${session}`);
    }
    worker.nudge();
    await expect.poll(() => passes.waiting).toBe(RECORDS.concurrency);

    await enqueue(DELIVER_MESSAGE_JOB, 'Claude answers Ada', 'room:1');
    worker.nudge('room:1');
    await enqueue(PLANNER_STEP_JOB, 'the plan for Bob');
    worker.nudge();
    await expect.poll(() => [...ran].sort()).toEqual(['Claude answers Ada', 'the plan for Bob']);
    // The records lane kept to its slots: the two passes left wait for one to end.
    expect(passes.waiting).toBe(RECORDS.concurrency);
    expect(await jobs.countByStatus(IDEA_LEDGER_JOB)).toMatchObject({ pending: 1 });

    release();
    const passesDone = async () =>
      ((await jobs.countByStatus(DOCUMENTATION_JOB_KINDS.scribe)).done ?? 0) + ((await jobs.countByStatus(IDEA_LEDGER_JOB)).done ?? 0);
    await expect.poll(passesDone).toBe(RECORDS.concurrency + 2);
    expect(passes.most).toBe(RECORDS.concurrency);
  });

  it("claims a room's delivery in the rooms lane alone: one statement, not one per lane", async () => {
    // The start claims every lane once (rooms, records, default), then sleeps: the poll never fires in a test.
    await expect.poll(() => jobs.claims.length).toBe(3);
    const before = jobs.claims.length;
    await enqueue(DELIVER_MESSAGE_JOB, 'Grok answers Ada', roomQueue({ transport: 'discord', roomId: '42' }));
    worker.nudge(roomQueue({ transport: 'discord', roomId: '42' }));
    await expect.poll(() => ran).toEqual(['Grok answers Ada']);
    expect(jobs.claims.slice(before)).toEqual([ROOMS.kinds.filter((kind) => kind === DELIVER_MESSAGE_JOB)]);
  });

  it("claims a postponed pass when it falls due, even when a room's delivery woke the worker first", async () => {
    let runs = 0;
    worker.register(DOCUMENTATION_JOB_KINDS.scribe, async () => {
      runs += 1;
      return runs === 1 ? { status: 'postpone', afterMs: 60_000 } : { status: 'done' };
    });
    await enqueue(DOCUMENTATION_JOB_KINDS.scribe, 'a pass Notion asked to wait for');
    worker.nudge();
    await expect.poll(() => runs).toBe(1);
    await expect.poll(() => jobs.countByStatus(DOCUMENTATION_JOB_KINDS.scribe)).toEqual({ pending: 1 });
    // The pass is due now; before the worker's own timer (a minute of real time) fires, a room's delivery wakes it.
    clock.advance(60_000);
    await enqueue(DELIVER_MESSAGE_JOB, 'ChatGPT answers Ada', roomQueue({ transport: 'discord', roomId: '7' }));
    worker.nudge(roomQueue({ transport: 'discord', roomId: '7' }));
    await expect.poll(() => ran).toEqual(['ChatGPT answers Ada']);
    await expect.poll(() => jobs.countByStatus(DOCUMENTATION_JOB_KINDS.scribe)).toEqual({ done: 1 });
  });

  it('delivers to many rooms at once, up to the rooms lane', async () => {
    let held = 0;
    let mostHeld = 0;
    worker.register(DELIVER_MESSAGE_JOB, async () => {
      held += 1;
      mostHeld = Math.max(mostHeld, held);
      await modelAnswers;
      held -= 1;
      return { status: 'done' };
    });
    for (let room = 0; room < ROOMS.concurrency + 3; room += 1) await enqueue(DELIVER_MESSAGE_JOB, `answer in room ${room}`, `room:${room}`);
    worker.nudge();
    await expect.poll(() => held).toBe(ROOMS.concurrency);
    release();
    await expect.poll(() => jobs.countByStatus(DELIVER_MESSAGE_JOB)).toEqual({ done: ROOMS.concurrency + 3 });
    expect(mostHeld).toBe(ROOMS.concurrency);
  });
});
