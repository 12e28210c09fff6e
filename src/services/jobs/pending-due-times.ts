/**
 * What this process last learnt of a key's pending deduplicated job (a session's next Scribe or ledger pass): when it
 * sent for it and when the job is due. While the job is well ahead, a caller need not send the insert again: the
 * pending job already covers what it would. A job never runs before it is due, except on a worker whose clock runs
 * early, hence the margin.
 */

/** One learnt due time; compared by identity, so an answer that raced a change is dropped. */
export interface PendingDueTime {
  sentAt: number;
  dueAt: number;
}

/** How long before its due time a pending job no longer counts as ahead: another process's clock may run early. */
const MARGIN_MS = 2_000;

/**
 * An entry whose insert was sent, and whose job was due, this long ago is forgotten: it covers nothing any more, and no
 * answer is in flight that long. Without it every session this process ever ran kept its entry (an ended one's pass
 * left it behind) for the life of the process.
 */
const FORGET_AFTER_MS = 60 * 60_000;
/** How often the entries are looked over for ones to forget, at most. */
const SWEEP_EVERY_MS = 60_000;

/** Never ahead: the job started at `at`, so the next caller must send the insert again. */
const started = (at: number): PendingDueTime => ({ sentAt: at, dueAt: Number.NEGATIVE_INFINITY });

/** The due times of the pending jobs this process sent for, by key. */
export class PendingDueTimes {
  private readonly entries = new Map<string, PendingDueTime>();
  private lastSweep = Number.NEGATIVE_INFINITY;

  /** The entry as it stands; hand it back to `learn` with the insert's answer. */
  current(key: string): PendingDueTime | undefined {
    return this.entries.get(key);
  }

  /**
   * True while the pending job `entry` names covers a job wanted at `wantedAt`: it is due later than the margin from
   * `now`, and no later than `wantedAt` (a job queued under a longer interval, before `!config` shortened it, does not).
   */
  covers(entry: PendingDueTime | undefined, now: Date, wantedAt: Date): entry is PendingDueTime {
    return entry !== undefined && now.getTime() < entry.dueAt - MARGIN_MS && entry.dueAt <= wantedAt.getTime();
  }

  /**
   * Keeps what an insert sent at `sentAt` answered (null: unknown). Dropped when the entry changed while it was in
   * flight (`before` is what `current` gave): a job that started meanwhile may be the one the answer names.
   */
  learn(key: string, before: PendingDueTime | undefined, sentAt: Date, dueAt: Date | null): void {
    // After the answer is taken: a sweep first could forget `before` itself and drop the answer for that alone.
    if (this.entries.get(key) === before) {
      if (dueAt === null) this.entries.delete(key);
      else this.entries.set(key, { sentAt: sentAt.getTime(), dueAt: dueAt.getTime() });
    }
    this.sweep(sentAt.getTime());
  }

  /** The key's job started here: the next caller sends the insert, and an answer in flight is not kept. */
  started(key: string, now: Date): void {
    this.sweep(now.getTime());
    this.entries.set(key, started(now.getTime()));
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) if (Math.max(entry.sentAt, entry.dueAt) < now - FORGET_AFTER_MS) this.entries.delete(key);
  }
}
