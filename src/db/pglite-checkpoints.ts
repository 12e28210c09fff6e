import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

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
  /** Log written since the last checkpoint that makes the next poll checkpoint. */
  walBytes: number;
  /** Time since the last checkpoint after which any new log is checkpointed (Postgres's `checkpoint_timeout`). */
  intervalMs: number;
  /** How often the log is looked at. */
  pollMs: number;
}

/** The policy `npm start` runs with. */
export const DEFAULT_CHECKPOINT_POLICY: CheckpointPolicy = { walBytes: 256 * 1024 * 1024, intervalMs: 5 * 60_000, pollMs: 30_000 };

/** Log a checkpoint writes itself (its record, and a little more): less than this since the last one is no new work. */
const IDLE_LOG_BYTES = 64 * 1024;

/** What a checkpoint check did. */
export type CheckpointOutcome = 'checkpointed' | 'not_due';

/** What `/metrics` shows of the checkpoints: how many were made, and the log written since the last one. */
export interface CheckpointStats {
  checkpoints: number;
  /** As of the last poll (a scrape sends no statement of its own). */
  logBytesSinceCheckpoint: number;
}

/** Checkpoints an embedded PGlite when enough log was written, or some was and enough time passed. */
export class PgliteCheckpointer {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<unknown> | null = null;
  private lastCheckpointAt: number;
  private onError: ((error: unknown) => void) | undefined;
  private readonly counts: CheckpointStats = { checkpoints: 0, logBytesSinceCheckpoint: 0 };

  constructor(
    /** Statements nobody waits on: on PGlite's one connection they yield to every waiting turn statement. */
    private readonly db: Kysely<Database>,
    private readonly options: {
      policy?: CheckpointPolicy;
      now?: () => number;
      /** Told when a check or a checkpoint failed (the next poll tries again). */
      onError?: (error: unknown) => void;
    } = {},
  ) {
    this.lastCheckpointAt = this.now();
    this.onError = options.onError;
  }

  /** Who hears that a check or a checkpoint failed (the app's logger, known only after the database was opened). */
  reportFailuresTo(listener: (error: unknown) => void): void {
    this.onError = listener;
  }

  /** Polls in the background until `stop`. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A poll waits behind a transaction or a checkpoint that holds the connection: the next one does not queue too.
      if (this.running) return;
      this.running = this.checkpointIfDue()
        .catch((error: unknown) => this.onError?.(error))
        .finally(() => {
          this.running = null;
        });
    }, this.policy.pollMs);
    // A poll never keeps the process alive.
    this.timer.unref();
  }

  /** Stops polling and waits for a check under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Checkpoints when due (see `CheckpointPolicy`). */
  async checkpointIfDue(): Promise<CheckpointOutcome> {
    const written = await this.logSinceCheckpoint();
    this.counts.logBytesSinceCheckpoint = written;
    const timedOut = this.now() - this.lastCheckpointAt >= this.policy.intervalMs;
    if (written < this.policy.walBytes && !(timedOut && written >= IDLE_LOG_BYTES)) return 'not_due';
    await sql`checkpoint`.execute(this.db);
    this.lastCheckpointAt = this.now();
    this.counts.checkpoints += 1;
    this.counts.logBytesSinceCheckpoint = 0;
    return 'checkpointed';
  }

  /** The checkpoints made so far, and the log written since the last one as the last poll read it. */
  stats(): CheckpointStats {
    return { ...this.counts };
  }

  /** Bytes of log written since the redo point of the last checkpoint. */
  async logSinceCheckpoint(): Promise<number> {
    const { rows } = await sql<{ bytes: number }>`
      select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 as bytes from pg_control_checkpoint()`.execute(this.db);
    return Number(rows[0]?.bytes ?? 0);
  }

  private get policy(): CheckpointPolicy {
    return this.options.policy ?? DEFAULT_CHECKPOINT_POLICY;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
