/** A job worker's instance row: registered at start, heartbeated, and used to reclaim the jobs of dead instances. */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { Clock } from '../../core/clock.ts';

/** Options of an instance keeper. */
export interface WorkerInstanceOptions {
  id: string;
  jobs: Pick<JobsRepository, 'registerInstance' | 'heartbeat' | 'stopInstance' | 'liveInstances' | 'reclaimAbandoned'>;
  clock: Clock;
  logger: Logger;
  /** How often the heartbeat is refreshed (clock time). */
  heartbeatMs?: number;
  /** A heartbeat older than this means the instance is gone. */
  staleMs?: number;
  host?: string;
  pid?: number;
  /** Whether a process of this machine is running (a restart finds its dead predecessor at once). */
  isProcessAlive?: (pid: number) => boolean;
  /**
   * Called when other processes stopped or were declared gone after this one started (a start reads back what they
   * left anyway): a message one of them claimed and never handled is left for the processes still running.
   */
  onOthersGone?: () => void;
}

/** Default heartbeat interval and staleness of worker instances. */
export const INSTANCE_TIMING = { heartbeatMs: 5_000, staleMs: 20_000 } as const;

/**
 * How far before its last heartbeat a beat looks for instances stopped since: the stop times are written by the
 * stopping processes' clocks, which may run behind ours.
 */
const CLOCK_SKEW_MS = 60_000;

/**
 * Instance ids registered by this very process. An instance row with our host and pid that is not one of them
 * belongs to an earlier process that had our pid (a container restarted as pid 1), so it is gone.
 */
const THIS_PROCESS = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Keeps one worker instance registered and alive, and reclaims what dead instances left running. */
export class WorkerInstanceKeeper {
  private announced: Promise<void> | null = null;
  private lastBeat = 0;
  /** When the last heartbeat (or the registration) reached the database: the next looks for stops since then. */
  private lastReached = 0;
  /** Instances whose stop was already told (or that this one declared gone, and told). */
  private readonly stopsTold = new Set<string>();
  /** Since when this process has reached the database without a failure (null while it does not). */
  private reachableSince: number | null = null;
  private readonly heartbeatMs: number;
  private readonly staleMs: number;
  private readonly host: string;
  private readonly pid: number;

  constructor(private readonly options: WorkerInstanceOptions) {
    this.heartbeatMs = options.heartbeatMs ?? INSTANCE_TIMING.heartbeatMs;
    this.staleMs = options.staleMs ?? INSTANCE_TIMING.staleMs;
    this.host = options.host ?? hostname();
    this.pid = options.pid ?? process.pid;
  }

  /**
   * Registers this instance once, then reclaims at once the jobs of instances that are gone: stale heartbeats,
   * and instances of this machine whose process is no longer running (or whose pid is now ours: a restart).
   */
  announce(): Promise<void> {
    if (this.announced) return this.announced;
    const announcing = (async () => {
      const { jobs, clock } = this.options;
      THIS_PROCESS.add(this.options.id);
      await jobs.registerInstance({ id: this.options.id, host: this.host, pid: this.pid }, clock.now());
      this.lastBeat = clock.now().getTime();
      this.lastReached = this.lastBeat;
      this.reachableSince ??= this.lastBeat;
      const alive = this.options.isProcessAlive ?? processAlive;
      const others = (await jobs.liveInstances()).filter((instance) => instance.id !== this.options.id);
      const gone = others
        .filter((instance) => instance.host === this.host && (instance.pid === this.pid ? !THIS_PROCESS.has(instance.id) : !alive(instance.pid)))
        .map((instance) => instance.id);
      await this.reclaim(gone, true);
    })();
    this.announced = announcing;
    // A failed announcement is tried again at the next poll: kept, it would fail every claim of this process for good.
    announcing.catch(() => {
      if (this.announced === announcing) this.announced = null;
    });
    return announcing;
  }

  /** Refreshes the heartbeat when due and reclaims the jobs of instances that stopped heartbeating. */
  async maintain(): Promise<void> {
    try {
      await this.beat();
    } catch (error) {
      this.reachableSince = null;
      throw error;
    }
  }

  private async beat(): Promise<void> {
    await this.announce();
    const now = this.options.clock.now();
    if (now.getTime() - this.lastBeat < this.heartbeatMs) return;
    this.lastBeat = now.getTime();
    const since = new Date(this.lastReached - CLOCK_SKEW_MS);
    const answer = await this.options.jobs.heartbeat(this.options.id, now, since).catch((error: unknown) => {
      // A beat that failed (the database was away) is tried again at the next poll, not a whole interval later.
      this.lastBeat = Number.NEGATIVE_INFINITY;
      throw error;
    });
    this.lastReached = now.getTime();
    this.reachableSince ??= now.getTime();
    if (!answer.alive) {
      // Declared gone after a long pause (its jobs went to others): come back as a live instance. The beat names no
      // stops then, and others may have stopped meanwhile: told as if one had.
      this.options.logger.warn({ instance: this.options.id }, 'job worker instance was declared gone; registering again');
      await this.options.jobs.registerInstance({ id: this.options.id, host: this.host, pid: this.pid }, now);
      this.options.onOthersGone?.();
    }
    const stopped = answer.stoppedSince.filter((id) => !this.stopsTold.has(id));
    // Kept to what the heartbeat names: an instance stopped long before no longer is, and will not be again.
    this.stopsTold.clear();
    for (const id of answer.stoppedSince) this.stopsTold.add(id);
    if (stopped.length > 0) {
      this.options.logger.info({ instances: stopped }, 'other processes stopped: taking over what they claimed and never handled');
      this.options.onOthersGone?.();
    }
    await this.reclaim([]);
  }

  /** Marks the instance stopped (a clean shutdown leaves nothing to reclaim). */
  async stop(): Promise<void> {
    if (!this.announced) return;
    await this.options.jobs.stopInstance(this.options.id, this.options.clock.now());
  }

  /**
   * `atStart`: also closes what instances declared gone earlier left open (a start after a crash of them all). A stale
   * heartbeat is judged only once this process has reached the database for two heartbeats: after an outage (or
   * when this process starts in one's wake) every heartbeat is stale until the live instances beat again, and a live
   * one declared gone would see its running jobs run twice.
   */
  private async reclaim(gone: string[], atStart = false): Promise<void> {
    const now = this.options.clock.now();
    const judging = this.reachableSince !== null && now.getTime() - this.reachableSince >= 2 * this.heartbeatMs;
    const staleBefore = judging ? new Date(now.getTime() - this.staleMs) : new Date(0);
    const reclaimed = await this.options.jobs.reclaimAbandoned(this.options.id, now, staleBefore, gone, {
      everyGoneInstance: atStart,
    });
    if (reclaimed.jobs > 0) this.options.logger.warn({ jobs: reclaimed.jobs, instances: gone }, 'reclaimed jobs left running by a worker that is gone');
    if (reclaimed.traces > 0) this.options.logger.info({ traces: reclaimed.traces }, 'closed the traces a worker that is gone left open, as cut short');
    // Remembered, so that the next heartbeat, which names them as stopped, does not tell of them again.
    for (const id of reclaimed.declared) this.stopsTold.add(id);
    if (reclaimed.declared.length === 0 || atStart) return;
    this.options.logger.warn({ instances: reclaimed.declared }, 'other processes declared gone (their heartbeat stopped)');
    this.options.onOthersGone?.();
  }
}
