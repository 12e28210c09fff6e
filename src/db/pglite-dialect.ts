import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/** What the dialect needs of PGlite: an instance on this thread, or one on a thread of its own (`PgliteThread`). */
export interface PgliteEngine {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
}

/** Who waits for a statement: a person or a turn (`turn`), or nobody (`background`: trace rows, the owner's poll). */
export type StatementPriority = 'turn' | 'background';

/** How PGlite's one connection was used since the database opened (`/metrics` shows it). */
export interface ConnectionUse {
  /** Seconds the connection was held by a statement or a transaction. */
  busySeconds: number;
  /** Acquisitions of the connection and the seconds they waited for it, by priority. */
  waits: Record<StatementPriority, { count: number; seconds: number }>;
}

/**
 * PGlite has one connection: callers queue for it, so a transaction never interleaves with another query. A waiting
 * turn's statement goes before every waiting background one: under load, trace rows took a quarter of the
 * connection's time, and a turn's insert queued behind them. `now` (milliseconds) times its use.
 */
export class SingleConnectionLock {
  private heldSince: number | null = null;
  private busyMs = 0;
  private readonly waiting: Record<StatementPriority, (() => void)[]> = { turn: [], background: [] };
  private readonly waited: Record<StatementPriority, { count: number; ms: number }> = { turn: { count: 0, ms: 0 }, background: { count: 0, ms: 0 } };

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Resolves with the release once the connection is the caller's. */
  acquire(priority: StatementPriority = 'turn'): Promise<() => void> {
    const asked = this.now();
    return new Promise((resolve) => {
      const grant = () => {
        const granted = this.now();
        this.heldSince = granted;
        this.waited[priority].count += 1;
        this.waited[priority].ms += granted - asked;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.release();
        });
      };
      if (this.heldSince !== null) this.waiting[priority].push(grant);
      else grant();
    });
  }

  /** The connection's use so far, a hold under way counted up to now. */
  use(): ConnectionUse {
    const holding = this.heldSince === null ? 0 : this.now() - this.heldSince;
    const seconds = (priority: StatementPriority) => ({ count: this.waited[priority].count, seconds: this.waited[priority].ms / 1000 });
    return { busySeconds: (this.busyMs + holding) / 1000, waits: { turn: seconds('turn'), background: seconds('background') } };
  }

  private release(): void {
    if (this.heldSince !== null) this.busyMs += this.now() - this.heldSince;
    this.heldSince = null;
    (this.waiting.turn.shift() ?? this.waiting.background.shift())?.();
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly database: PgliteEngine) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (compiledQuery.parameters.length === 0 && compiledQuery.sql.includes(';')) {
      // Migrations send several statements at once; only the simple protocol (exec) accepts that.
      const results = await this.database.exec(compiledQuery.sql);
      const last = results[results.length - 1];
      return { rows: (last?.rows ?? []) as R[], numAffectedRows: BigInt(last?.affectedRows ?? 0) };
    }
    const result = await this.database.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return { rows: result.rows, numAffectedRows: BigInt(result.affectedRows ?? 0) };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}

/** How a dialect shares its PGlite: the lock of the one connection, and its statements' place in the queue. */
export interface PgliteDialectOptions {
  /** Shared by every dialect over one PGlite (see pgliteHandle); absent: a lock of its own. */
  lock?: SingleConnectionLock;
  priority?: StatementPriority;
  /** Whether destroying the Kysely instance closes PGlite (false for a second instance over the same one). */
  closesEngine?: boolean;
}

class PgliteDriver implements Driver {
  private readonly lock: SingleConnectionLock;
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly connection: PgliteConnection;

  constructor(
    private readonly database: PgliteEngine,
    private readonly options: PgliteDialectOptions,
  ) {
    this.connection = new PgliteConnection(database);
    this.lock = options.lock ?? new SingleConnectionLock();
  }

  async init(): Promise<void> {
    await this.database.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire(this.options.priority);
    // One connection object per acquisition, so each release is tied to its own holder.
    const handle = Object.create(this.connection) as PgliteConnection;
    this.releases.set(handle, release);
    return handle;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy(): Promise<void> {
    if (this.options.closesEngine !== false && !this.database.closed) await this.database.close();
  }
}

/** A Kysely dialect over an in-process PGlite database. */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly database: PgliteEngine,
    private readonly options: PgliteDialectOptions = {},
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.database, this.options);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
