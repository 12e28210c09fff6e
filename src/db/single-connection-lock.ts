/** Who waits for a statement: a person or a turn (`turn`), or nobody (`background`: trace rows, the owner's poll). */
export type StatementPriority = 'turn' | 'background';

/** How PGlite's one connection was used since the database opened (`/metrics` shows it). */
export interface ConnectionUse {
  /** Seconds in which at least one statement was running or waiting to run on PGlite's side. */
  busySeconds: number;
  /** Statements sent to PGlite and not yet answered, now (running, or queued on its thread). */
  inFlight: number;
  /** Turns at the connection (a statement, or a transaction) and the seconds they waited for it, by priority. */
  waits: Record<StatementPriority, { count: number; seconds: number }>;
}

/**
 * The right to send statements to PGlite's one connection: callers queue for it, so a transaction never interleaves
 * with another statement. A waiting turn's statement goes before every waiting background one: under load, trace
 * rows took a quarter of the connection's time, and a turn's insert queued behind them. `now` (milliseconds) times
 * the waits and how long statements are in flight.
 */
export class SingleConnectionLock {
  private held = false;
  private readonly waiting: Record<StatementPriority, (() => void)[]> = { turn: [], background: [] };
  private readonly waited: Record<StatementPriority, { count: number; ms: number }> = { turn: { count: 0, ms: 0 }, background: { count: 0, ms: 0 } };
  private inFlight = 0;
  private busySince = 0;
  private busyMs = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Resolves with the release once the connection is the caller's. */
  acquire(priority: StatementPriority = 'turn'): Promise<() => void> {
    const asked = this.now();
    return new Promise((resolve) => {
      const grant = () => {
        this.held = true;
        this.waited[priority].count += 1;
        this.waited[priority].ms += this.now() - asked;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.release();
        });
      };
      if (this.held) this.waiting[priority].push(grant);
      else grant();
    });
  }

  /** Counts the connection busy while `statement` is in flight. */
  track<T>(statement: Promise<T>): Promise<T> {
    if (this.inFlight === 0) this.busySince = this.now();
    this.inFlight += 1;
    const settled = () => {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.busyMs += this.now() - this.busySince;
    };
    statement.then(settled, settled);
    return statement;
  }

  /** The connection's use so far, statements in flight counted up to now. */
  use(): ConnectionUse {
    const running = this.inFlight === 0 ? 0 : this.now() - this.busySince;
    const seconds = (priority: StatementPriority) => ({ count: this.waited[priority].count, seconds: this.waited[priority].ms / 1000 });
    return { busySeconds: (this.busyMs + running) / 1000, inFlight: this.inFlight, waits: { turn: seconds('turn'), background: seconds('background') } };
  }

  private release(): void {
    this.held = false;
    (this.waiting.turn.shift() ?? this.waiting.background.shift())?.();
  }
}
