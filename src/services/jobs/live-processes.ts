/**
 * The processes of this installation that are alive now (their job workers' heartbeats are fresh): they share an
 * outside budget such as Notion's requests per second, and one of them may be creating what another is about to.
 */
import type { Clock } from '../../core/clock.ts';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import { INSTANCE_TIMING } from './worker-instance.ts';

/** What the reads need. */
export interface LiveProcessesOptions {
  clock: Clock;
  jobs: Pick<JobsRepository, 'liveInstances'>;
  /** How often the count is read again (default: a heartbeat, 5 s). */
  refreshMs?: number;
  /** A heartbeat older than this is a process that is gone (default 20 s, as the job worker declares it). */
  staleMs?: number;
}

/** The live processes: how many (read without waiting, refreshed in the background), and whether one is. */
export class LiveProcesses {
  private lastIds: readonly string[] = [];
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;

  constructor(private readonly options: LiveProcessesOptions) {}

  /** The last count read, at least 1 (this one), starting a fresh read when it is older than the refresh interval. */
  count(): number {
    return Math.max(1, this.ids().length);
  }

  /** The ids of the live instances as last read, in order (read afresh in the background as `count` is). */
  ids(): readonly string[] {
    const now = this.options.clock.now().getTime();
    if (!this.reading && now - this.readAt >= (this.options.refreshMs ?? INSTANCE_TIMING.heartbeatMs)) {
      this.readAt = now;
      this.reading = this.read().finally(() => (this.reading = null));
    }
    return this.lastIds;
  }

  /** Whether the worker instance `id` heartbeats now (read at once: a rare question, asked after a crash). */
  async isAlive(id: string): Promise<boolean> {
    return (await this.fresh()).some((instance) => instance.id === id);
  }

  /** Resolves once the read in progress (if any) is done (tests). */
  async settled(): Promise<void> {
    await this.reading;
  }

  private async read(): Promise<void> {
    try {
      this.lastIds = (await this.fresh()).map((instance) => instance.id).sort();
    } catch {
      // The database is busy or gone for a moment: the last count stands until the next read.
    }
  }

  private async fresh(): Promise<{ id: string }[]> {
    const freshSince = this.options.clock.now().getTime() - (this.options.staleMs ?? INSTANCE_TIMING.staleMs);
    return (await this.options.jobs.liveInstances()).filter((instance) => instance.heartbeatAt.getTime() > freshSince);
  }
}
