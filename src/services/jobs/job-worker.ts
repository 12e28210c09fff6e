import { OutageLog } from '../../logging/outage-log.ts';
import type { ClaimedJob, SuccessorClaim } from '../../repositories/jobs-repository.ts';
import { ClaimRequests } from './claim-requests.ts';
import { IdleSleep } from './idle-sleep.ts';
import { settleJobWhenReachable } from './job-settlement.ts';
import type { JobHandler, JobOutcome } from './job-types.ts';
import { LocalQueueRuns } from './local-queue-runs.ts';
import { renewLeaseWhileRunning } from './lease-renewal.ts';
import { LostClaims, type SuccessorClaims } from './lost-claims.ts';
import { WorkerLanes, type LaneSlots, type LaneUse } from './worker-lanes.ts';
import { WorkerInstanceKeeper } from './worker-instance.ts';
import type { JobWorkerOptions } from './job-worker-options.ts';

export type { JobWorkerOptions } from './job-worker-options.ts';

/** A queue's jobs run one after another in one slot: the last one run and the nudge count when it was claimed. */
interface QueueChain {
  last: ClaimedJob;
  nudgesBefore: number;
}

/** A job's end: the next job of its queue when its last statement claimed it, and the nudge count at that claim. */
interface JobEnd {
  next: ClaimedJob | null;
  nudgesBefore: number;
}

/**
 * Claims due jobs and runs their handlers: the outbox (Discord deliveries, Notion writes) and every timer
 * (scribe, tldr, planner timeout, session timeout). Each worker registers an instance row and heartbeats it:
 * the jobs of an instance that is gone (stale heartbeat, or a dead process of this machine at start) are claimable
 * at once; a lease only protects a job from instances that are alive.
 */
export class JobWorker {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly lanes: WorkerLanes;
  private running = false;
  private loop: Promise<void> | null = null;
  /** How many times work was queued (`nudge`): a job whose claim predates a nudge may have blocked that work. */
  private nudges = 0;
  /** What the next claim looks at, from the nudges since the last one began. */
  private readonly requests: ClaimRequests;
  /** Queues of the jobs running here: work queued behind one is claimed when it ends (its nudge is counted). */
  private readonly runningQueues = new Set<string>();
  /** The chain running here for each queue (the loop's or a `runQueue`'s), so `runQueue` can wait for it. */
  private readonly localRuns = new LocalQueueRuns();
  private readonly inFlight = new Set<Promise<void>>();
  /** The idle loop's sleep: it wakes when a job this worker retried or postponed falls due. */
  private readonly idle: IdleSleep;
  private readonly stopController = new AbortController();
  private readonly instance: WorkerInstanceKeeper;
  private readonly outages: OutageLog;
  /** The jobs this worker knows it holds, to put back those a dropped connection's lost claim took. */
  private readonly lostClaims: LostClaims;

  constructor(private readonly options: JobWorkerOptions) {
    this.outages = new OutageLog(options.logger, 'the job worker');
    this.lostClaims = new LostClaims(options);
    this.instance = new WorkerInstanceKeeper({ ...options.instance, id: options.workerId, jobs: options.jobs, clock: options.clock, logger: options.logger });
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.concurrency = options.concurrency ?? 8;
    this.lanes = new WorkerLanes(options.lanes ?? [], this.concurrency);
    this.requests = new ClaimRequests(
      (queue) => this.lanes.laneOfQueue(queue),
      (queue) => this.runningQueues.has(queue),
    );
    this.idle = new IdleSleep(options.clock, options.pollMs ?? 1_000);
  }

  /** This worker's instance id (live sessions are leased to it too). */
  get id(): string {
    return this.options.workerId;
  }

  /** Each lane's jobs running here now and its slots. */
  laneUse(): LaneUse[] {
    return this.lanes.use();
  }

  /** Registers the handler of one job kind. */
  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Runs every job due now once (tests call this after advancing their clock). Returns how many ran. */
  async runDue(kinds?: string[]): Promise<number> {
    await this.instance.maintain();
    let total = 0;
    for (;;) {
      const claimed = await this.claimDue(this.concurrency, kinds ?? [...this.handlers.keys()]);
      if (claimed.length === 0) return total;
      const chains = await Promise.all(claimed.map((job) => this.runChain({ last: job, nudgesBefore: this.nudges })));
      total += chains.reduce((sum, length) => sum + length, 0);
    }
  }

  /**
   * Runs the due jobs of one queue now, in order (e.g. a room's pending deliveries before a new round). It stops after
   * a job nothing waited behind when it was claimed: work queued since then was nudged, and the loop claims it.
   * With `awaitRunning`, a run of the queue already under way in this process (the loop claimed the job first) is
   * waited for, then the queue is claimed again: a caller that needs a job's result (`!summary` its TLDR) gets it.
   */
  async runQueue(queue: string, options: { awaitRunning?: boolean } = {}): Promise<void> {
    const awaitRunning = options.awaitRunning ?? false;
    for (let batch = 0; batch < 50; batch += 1) {
      if (awaitRunning && (await this.localRuns.waitFor(queue))) continue;
      const claimed = await this.claimDue(1, [...this.handlers.keys()], queue);
      const job = claimed[0];
      // An empty claim may have lost the job to the loop's claim, which answered first.
      if (!job) {
        if (awaitRunning && (await this.localRuns.waitFor(queue))) continue;
        return;
      }
      const chain = { last: job, nudgesBefore: this.nudges };
      const run = this.runChain(chain);
      this.localRuns.track(queue, run);
      await run;
      if (!chain.last.hasSuccessor) return;
    }
  }

  /** Registers this worker's instance (reclaiming what dead instances left running), then starts the polling loop. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.instance.announce();
    } catch (error) {
      this.options.logger.error({ err: error }, 'job worker could not register its instance');
    }
    this.loop = this.poll();
  }

  /**
   * Asks the loop to look for work now (after enqueueing something due). Work of a `queue` whose job is running here
   * cannot be claimed before that job ends: its end claims it, and a claim now would come back empty.
   */
  nudge(queue?: string): void {
    this.nudges += 1;
    if (queue === undefined || !this.runningQueues.has(queue)) this.claimSoon(queue);
  }

  /** Claims again soon: in `lane`, in the lane of `queue`'s jobs when its name tells it, else in every lane. */
  private claimSoon(queue?: string, lane?: LaneSlots): void {
    this.requests.add(queue, lane);
    this.idle.wake();
  }

  /** Stops claiming, aborts waiting, and waits for running jobs to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopController.abort();
    this.idle.wake();
    await this.loop;
    // A queue's chain runs as one promise, so this waits for the successors its jobs claimed too.
    await Promise.allSettled([...this.inFlight]);
    await this.instance.stop().catch((error: unknown) => this.options.logger.warn({ err: error }, 'job worker could not mark its instance stopped'));
  }

  private async poll(): Promise<void> {
    while (this.running) {
      const lanes = this.requests.begin();
      try {
        await this.instance.maintain();
        // Jobs a lost claim took are put back due now: this pass claims them (every lane: it may not be asked for).
        const claimed = (await this.lostClaims.recover()) > 0 ? await this.claimEachLane(null) : await this.claimEachLane(lanes);
        this.outages.succeeded();
        if (claimed) continue;
      } catch (error) {
        this.outages.failed(error, 'error', 'job worker could not claim jobs');
      }
      if (this.requests.pending()) continue;
      // A stop that came while this loop claimed found no sleep to wake: it must not begin one (a poll long).
      if (!this.running) break;
      await this.idle.sleep();
      this.requests.woke();
    }
  }

  /** Claims what each lane (of `only`, when given) has room for; true when a lane took all it asked for (more may be due). */
  private async claimEachLane(only: ReadonlySet<LaneSlots> | null): Promise<boolean> {
    let filled = false;
    // A claim of every lane takes whatever of the known due times is due by now (or another worker took it, or a full
    // lane's job end claims it); a claim of some lanes leaves them, so the loop wakes at once to claim the others.
    if (!only) this.idle.passed(this.options.clock.now());
    for (const { lane, free, kinds } of this.lanes.openings(this.handlers.keys())) {
      if (only && !only.has(lane)) continue;
      if (free === 0) {
        lane.full = true;
        continue;
      }
      const nudgesBefore = this.nudges;
      const claimed = await this.claimDue(free, kinds);
      for (const job of claimed) this.track(job, nudgesBefore);
      // Fewer than asked for: nothing else is due, unless something was queued (a nudge) while we claimed.
      lane.full = claimed.length === free;
      if (lane.full) this.requests.again(lane);
      filled ||= lane.full;
    }
    return filled;
  }

  /** Claims up to `limit` due jobs of `kinds` (of one `queue`), noting what the claim took (see LostClaims). */
  private claimDue(limit: number, kinds: string[], queue?: string): Promise<ClaimedJob[]> {
    const { jobs, workerId, clock } = this.options;
    return this.lostClaims.claim(() => jobs.claimDue(workerId, clock.now(), this.leaseMs, limit, kinds, queue));
  }

  /**
   * Runs a claimed job, and the jobs of its queue its delivery claimed after it; the chain's end claims again only when
   * that can find work: the worker was full, a job of its queue was waiting behind the last one, or work was queued
   * after the last claim began (its queue may have held it back). Otherwise the claim would come back empty.
   */
  private track(job: ClaimedJob, nudgesBefore: number): void {
    if (job.queue !== null) this.runningQueues.add(job.queue);
    const chain: QueueChain = { last: job, nudgesBefore };
    const lane = this.lanes.laneOf(job.kind);
    lane.running += 1;
    // A job whose outcome could not be recorded runs again when its lease ends; it must not take the process down.
    const promise = this.runChain(chain).then(
      () => undefined,
      (error: unknown) => this.options.logger.error({ err: error, job: job.id }, 'could not record how a job ended: it runs again when its lease ends'),
    );
    this.inFlight.add(promise);
    if (job.queue !== null) this.localRuns.track(job.queue, promise);
    // `promise` never rejects (its failure is logged above).
    void promise.then(() => {
      this.inFlight.delete(promise);
      lane.running -= 1;
      // Every nudge since the last claim began counts, those held back for this queue among them.
      const queued = chain.last.queue !== null && this.nudges !== chain.nudgesBefore;
      if (job.queue !== null) this.runningQueues.delete(job.queue);
      if (lane.full || chain.last.hasSuccessor || queued) this.claimSoon(undefined, lane);
    });
  }

  /** Runs `chain.last` and each job its end claimed after it (same queue, same slot). Returns how many ran. */
  private async runChain(chain: QueueChain): Promise<number> {
    for (let ran = 1; ; ran += 1) {
      const end = await this.execute(chain.last);
      if (!end.next) return ran;
      chain.last = end.next;
      chain.nudgesBefore = end.nudgesBefore;
    }
  }

  private async execute(job: ClaimedJob): Promise<JobEnd> {
    const handler = this.handlers.get(job.kind);
    const end: JobEnd = { next: null, nudgesBefore: this.nudges };
    const successors = this.lostClaims.successorsOf();
    const heartbeat = renewLeaseWhileRunning({ ...this.options, leaseMs: this.leaseMs }, job);
    let outcome: JobOutcome;
    try {
      outcome = handler
        ? await handler(job, this.stopController.signal, this.successorClaim(job, end, successors))
        : { status: 'failed', error: `no handler for job kind ${job.kind}` };
    } catch (error) {
      outcome = { status: 'retry', error: error instanceof Error ? error.message : String(error) };
    } finally {
      heartbeat.stop();
    }
    successors.answered(outcome.status === 'settled' ? (outcome.next ?? null) : null, outcome.status === 'retry');
    const settlement = { ...this.options, expect: (runAt: Date) => this.idle.expect(runAt) };
    await settleJobWhenReachable(settlement, job, outcome, this.stopController.signal).finally(() => this.lostClaims.ended(job));
    if (outcome.status === 'settled' && outcome.next) end.next = outcome.next;
    return end;
  }

  /**
   * What a queued job's end may claim after it: nothing once the worker stops (it would run after the stop), nor while
   * the worker is full (a busy room would keep its slot while other queues wait).
   */
  private successorClaim(job: ClaimedJob, end: JobEnd, successors: SuccessorClaims): SuccessorClaim | null {
    if (job.queue === null) return null;
    return {
      workerId: this.options.workerId,
      leaseMs: this.leaseMs,
      kinds: [...this.handlers.keys()],
      // Not while the worker is full either: then the poll shares the free slots among every queue's due work.
      sending: () => {
        if (this.stopController.signal.aborted || this.lanes.laneOf(job.kind).full || !successors.sending()) return false;
        end.nudgesBefore = this.nudges;
        return true;
      },
    };
  }
}
