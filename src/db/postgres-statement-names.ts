import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { BrainstormError } from '../core/errors.ts';
import { asUnreachable } from './connection-failures.ts';
import { isNameableStatement } from './named-statements.mjs';

/**
 * Distinct texts given a name at most. The app sends a few dozen texts all day; Kysely's IN lists add one text per
 * length. Past the cap a text runs unnamed, as every text did before: each name is
 * prepared once on every connection that runs it and kept for the connection's life, so the cap bounds what a
 * connection holds on the server.
 */
export const POSTGRES_STATEMENT_NAME_CAPACITY = 256;

/** Postgres's `feature_not_supported`, raised when a prepared statement's result columns changed (a table altered since). */
const CACHED_PLAN_CHANGED = '0A000';

function isCachedPlanChange(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === CACHED_PLAN_CHANGED;
}

/** The names given to texts, shared by every connection of a pool. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private nextName = 1;

  constructor(private readonly capacity = POSTGRES_STATEMENT_NAME_CAPACITY) {}

  /** The name `sql` runs under, or undefined when it runs unnamed (not a plain data statement, or past the cap). */
  nameFor(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined || !isNameableStatement(sql) || this.names.size >= this.capacity) return known;
    return this.rename(sql);
  }

  /** Gives `sql` a new name, never used before, so every connection prepares it afresh (its old plan's columns changed). */
  rename(sql: string): string {
    const name = `brainstorm_${this.nextName++}`;
    this.names.set(sql, name);
    return name;
  }
}

/** pg's result as Kysely reads it (Kysely types `command` as the statements it knows; pg as any string). */
function kyselyResult<R>(result: pg.QueryResult): PostgresQueryResult<R> {
  return { command: result.command as PostgresQueryResult<R>['command'], rowCount: result.rowCount ?? 0, rows: result.rows as R[] };
}

/**
 * A pool client whose plain data statements run as named prepared statements: Postgres parses (and, once it keeps a
 * generic plan, plans) a text once per connection instead of at every run.
 */
class NamingClient {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly names: StatementNames,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters: ReadonlyArray<unknown> = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely passes a cursor only to stream, which needs a cursor class the dialect is not given: never here.
    if (typeof sql !== 'string') throw new BrainstormError('internal', 'streamed queries are not supported on Postgres');
    return this.run<R>(sql, parameters).catch((error: unknown): never => {
      throw asUnreachable(error);
    });
  }

  release(destroy?: boolean): void {
    this.client.release(destroy);
  }

  private async run<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const name = this.names.nameFor(sql);
    const values = [...parameters];
    if (name === undefined) return kyselyResult(await this.client.query(sql, values));
    try {
      return kyselyResult(await this.client.query({ name, text: sql, values }));
    } catch (error) {
      if (!isCachedPlanChange(error)) throw error;
      // Another process migrated a table this text reads: prepared afresh under a new name it runs. Inside a
      // transaction the error has aborted it, and the retry fails too: the caller sees the first error.
      try {
        return kyselyResult(await this.client.query({ name: this.names.rename(sql), text: sql, values }));
      } catch {
        throw error;
      }
    }
  }
}

/** Wraps a pg pool so Kysely's statements run named (see NamingClient); one wrapper per pooled connection. */
export function namingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, NamingClient>();
  return {
    options: pool.options,
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect().catch((error: unknown): never => {
        throw asUnreachable(error);
      });
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        // The server going away while a client is checked out (between a transaction's statements) is emitted on the
        // client, where no listener would crash the process: the next statement fails, typed, instead.
        client.on('error', () => undefined);
        wrapper = new NamingClient(client, names);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
