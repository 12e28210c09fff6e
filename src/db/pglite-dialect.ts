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
import type { SingleConnectionLock, StatementPriority } from './single-connection-lock.ts';

/** What the dialect needs of PGlite: an instance on this thread, or one on a thread of its own (`PgliteThread`). */
export interface PgliteEngine {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
  /**
   * True when statements run in the order they were sent, each sent at once (PgliteThread): a statement may then
   * be sent before the one ahead of it has answered. Absent: each waits for the one before (PGlite on this thread).
   */
  readonly runsInSendOrder?: boolean;
}

/** A hold on the connection by one Kysely acquisition: a statement, a transaction, or a reserved connection. */
class PgliteConnection implements DatabaseConnection {
  /** Between `begin` and `commit`/`rollback`: the hold is kept, so no other statement lands inside. */
  inTransaction = false;

  constructor(
    private readonly database: PgliteEngine,
    private readonly lock: SingleConnectionLock,
    private readonly priority: StatementPriority,
    private hold: (() => void) | null,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Given up after an earlier statement was sent: this one waits its turn again.
    this.hold ??= await this.lock.acquire(this.priority);
    const running = this.lock.track(this.send<R>(compiledQuery));
    // PGlite's thread runs statements in the order they were sent: a turn's statement outside a transaction needs
    // the connection only to be sent, and the next one is sent while it runs instead of after its rows came back.
    // A background statement keeps the connection until it is done, so no turn's statement queues behind it there.
    if (this.database.runsInSendOrder && this.priority === 'turn' && !this.inTransaction) this.giveUp();
    return running;
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }

  /** Lets the next caller send. */
  giveUp(): void {
    const release = this.hold;
    this.hold = null;
    release?.();
  }

  private async send<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (compiledQuery.parameters.length === 0 && compiledQuery.sql.includes(';')) {
      // Migrations send several statements at once; only the simple protocol (exec) accepts that.
      const results = await this.database.exec(compiledQuery.sql);
      const last = results[results.length - 1];
      return { rows: (last?.rows ?? []) as R[], numAffectedRows: BigInt(last?.affectedRows ?? 0) };
    }
    const result = await this.database.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return { rows: result.rows, numAffectedRows: BigInt(result.affectedRows ?? 0) };
  }
}

/** How a dialect shares its PGlite: the lock of the one connection (one per PGlite), and its statements' priority. */
export interface PgliteDialectOptions {
  lock: SingleConnectionLock;
  priority: StatementPriority;
}

function pgliteConnection(connection: DatabaseConnection): PgliteConnection {
  if (!(connection instanceof PgliteConnection)) throw new Error('not a PGlite connection');
  return connection;
}

class PgliteDriver implements Driver {
  constructor(
    private readonly database: PgliteEngine,
    private readonly options: PgliteDialectOptions,
  ) {}

  async init(): Promise<void> {
    await this.database.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const { lock, priority } = this.options;
    return new PgliteConnection(this.database, lock, priority, await lock.acquire(priority));
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    pgliteConnection(connection).inTransaction = true;
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection, 'rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    pgliteConnection(connection).giveUp();
  }

  /** PGlite outlives its Kysely instances: the database handle closes it (see pgliteHandle). */
  async destroy(): Promise<void> {}

  private async endTransaction(connection: DatabaseConnection, statement: 'commit' | 'rollback'): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw(statement));
    } finally {
      pgliteConnection(connection).inTransaction = false;
    }
  }
}

/** A Kysely dialect over an in-process PGlite database. */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly database: PgliteEngine,
    private readonly options: PgliteDialectOptions,
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
