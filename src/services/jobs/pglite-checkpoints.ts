import type { Clock } from '../../core/clock.ts';
import type { MaintenanceRepository } from '../../repositories/maintenance-repository.ts';

/**
 * When embedded PGlite checkpoints. It runs Postgres as a single-user backend, which has no checkpointer process: its
 * redo point never moves while the process lives, so every write-ahead log segment it fills stays on disk (a turn
 * writes ~46 KB of log here, a 16 MB segment per ~350 turns, without bound until the bot stops) and a crash makes the
 * next start replay all of them. Postgres itself checkpoints every 5 minutes or after 1 GB of log. The time is kept;
 * the volume is smaller, as a bot's data is: 256 MB bounds the directory and a crash's replay (~2.5 s) under a
 * sustained load. Not less: after a checkpoint every page's first change writes the whole page to the log again, and
 * one every 32 MB (40 s of the 500-session load) made that load's turns about twice as slow.
 */
export interface CheckpointPolicy {
  /** Log written since the last checkpoint that makes the next check checkpoint. */
  walBytes: number;
  /** Time since the last checkpoint after which any new log is checkpointed (Postgres's `checkpoint_timeout`). */
  intervalMs: number;
}

/** The policy `npm start` runs with; housekeeping looks every minute. */
export const DEFAULT_CHECKPOINT_POLICY: CheckpointPolicy = { walBytes: 256 * 1024 * 1024, intervalMs: 5 * 60_000 };

/** Log a checkpoint writes itself (its record, and a little more): less than this since the last one is no new work. */
const IDLE_LOG_BYTES = 64 * 1024;

/** What a checkpoint check did (`not_due` on a Postgres server, which checkpoints itself). */
export type CheckpointOutcome = 'checkpointed' | 'not_due';

/** What `/metrics` shows of the checkpoints: how many were made, and the log written since the last one. */
export interface CheckpointStats {
  checkpoints: number;
  /** As of the last check (a scrape sends no statement of its own). */
  logBytesSinceCheckpoint: number;
}

/** Checkpoints embedded PGlite when enough log was written, or some was and enough time passed (housekeeping asks). */
export class PgliteCheckpoints {
  private lastCheckpointAt: number;
  private readonly counts: CheckpointStats = { checkpoints: 0, logBytesSinceCheckpoint: 0 };

  constructor(
    private readonly options: {
      maintenance: Pick<MaintenanceRepository, 'logSinceCheckpoint' | 'checkpoint'>;
      clock: Clock;
      policy?: CheckpointPolicy;
    },
  ) {
    this.lastCheckpointAt = this.now();
  }

  /** Checkpoints when due (see `CheckpointPolicy`). */
  async checkpointIfDue(): Promise<CheckpointOutcome> {
    const { maintenance, policy = DEFAULT_CHECKPOINT_POLICY } = this.options;
    const written = await maintenance.logSinceCheckpoint();
    if (written === null) return 'not_due';
    this.counts.logBytesSinceCheckpoint = written;
    const timedOut = this.now() - this.lastCheckpointAt >= policy.intervalMs;
    if (written < policy.walBytes && !(timedOut && written >= IDLE_LOG_BYTES)) return 'not_due';
    await maintenance.checkpoint();
    this.lastCheckpointAt = this.now();
    this.counts.checkpoints += 1;
    this.counts.logBytesSinceCheckpoint = 0;
    return 'checkpointed';
  }

  /** The checkpoints made so far, and the log written since the last one as the last check read it. */
  stats(): CheckpointStats {
    return { ...this.counts };
  }

  private now(): number {
    return this.options.clock.now().getTime();
  }
}
