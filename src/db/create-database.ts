import { join } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { NamedStatements } from './named-statements.mjs';
import { namingPool } from './postgres-statement-names.ts';
import { PgliteDialect, type PgliteEngine } from './pglite-dialect.ts';
import { SingleConnectionLock, type ConnectionUse } from './single-connection-lock.ts';
import { PgliteThread, type PgliteThreadOptions } from './pglite-thread.ts';
import { templateSeedFor } from './pglite-template.ts';
import type { QueryCounter } from './query-counter.ts';
import type { Database } from './schema.ts';
import { PostgresSignals, type DatabaseSignals } from './postgres-signals.ts';

/** Where the database lives: a Postgres server, a PGlite directory, or PGlite in memory (tests). */
export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; directory: string } | { kind: 'memory' };

/** An open database and how to close it. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * The same database for writes nobody waits on (trace rows, the owner's poll): on PGlite's one connection they
   * yield to every waiting turn statement; on a Postgres server it is `db` (a pool has no such queue).
   */
  background: Kysely<Database>;
  /** How embedded PGlite's one connection was used so far (absent on Postgres, whose server has its own statistics). */
  connectionUse?: () => ConnectionUse;
  engine: 'postgres' | 'pglite';
  /** Notices between the processes sharing the server (Postgres only; its listening connection opens on first use). */
  signals?: DatabaseSignals;
  close(): Promise<void>;
}

const INT8 = 20;
const NUMERIC = 1700;

/** Type handling shared by every PGlite instance: int8 and numeric come back as numbers. */
export const PGLITE_TYPE_OPTIONS = {
  parsers: { [INT8]: (value: string) => Number(value), [NUMERIC]: (value: string) => Number(value) },
  serializers: { [pgliteTypes.INT8]: (value: unknown) => String(value) },
};

/** Optional instrumentation of a handle (the bench counts statements). */
export interface DatabaseOptions {
  counter?: QueryCounter;
}

/** A PGlite on this thread, its statements named as the PGlite thread names them (see named-statements.mjs). */
function withNamedStatements(database: PGlite): PgliteEngine {
  const statements = new NamedStatements(database);
  return {
    get waitReady() {
      return database.waitReady;
    },
    get closed() {
      return database.closed;
    },
    query: (sql, params) => statements.query(sql, params),
    exec: (sql) => statements.exec(sql),
    close: () => database.close(),
  };
}

/** Wraps an open PGlite instance (e.g. a clone of a migrated template, or one on its own thread) as a database handle. */
export function pgliteHandle(database: PgliteEngine, options: DatabaseOptions = {}): DatabaseHandle {
  const engine = database instanceof PGlite ? withNamedStatements(database) : database;
  const lock = new SingleConnectionLock();
  const log = options.counter ? { log: options.counter.record } : {};
  // Two Kysely instances over one connection; the handle closes PGlite itself (Kysely skips a driver never used).
  const db = new Kysely<Database>({ dialect: new PgliteDialect(engine, { lock, priority: 'turn' }), ...log });
  const background = new Kysely<Database>({ dialect: new PgliteDialect(engine, { lock, priority: 'background' }), ...log });
  return {
    db,
    background,
    connectionUse: () => lock.use(),
    engine: 'pglite',
    close: async () => {
      await Promise.all([db.destroy(), background.destroy()]);
      if (!engine.closed) await engine.close();
    },
  };
}

/**
 * Postgres's default buffer pool (128 MB) lives in PGlite's WebAssembly memory, in the bot's process: the bot's data
 * is a few MB and PGlite's files are in the OS page cache anyway, so a small pool costs no speed and ~110 MB less RSS.
 * `max_wal_size` as the volume that makes the app checkpoint (see services/jobs/pglite-checkpoints.ts): a checkpoint
 * keeps old log segments for reuse up to about it (a directory that had gathered 17 before its first checkpoint kept
 * all 17 with Postgres's 1 GB, 16 with this), so one that gathered a gigabyte before this release keeps at most this.
 */
const PGLITE_EXTRA_PARAMS = ['-c', 'shared_buffers=16MB', '-c', 'max_wal_size=256MB'];
/** PGlite's start parameters with the small buffer pool. */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, ...PGLITE_EXTRA_PARAMS];

/** PGlite on a thread of its own (see PgliteThread), as a database handle: what the app runs on. */
export function pgliteThreadHandle(thread: Omit<PgliteThreadOptions, 'startParams'>, options: DatabaseOptions = {}): DatabaseHandle {
  return pgliteHandle(new PgliteThread({ ...thread, startParams: PGLITE_EXTRA_PARAMS }), options);
}

function openPglite(directory: string | undefined, options: DatabaseOptions): DatabaseHandle {
  const seed = directory ? templateSeedFor(directory) : {};
  return pgliteThreadHandle({ ...(directory ? { dataDir: directory } : {}), ...seed }, options);
}

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    // Measured under the bench's 500-session load on two cores (alternating runs, intake p99): 5 connections queued the
    // statements (337-660 ms), 30 let Postgres's backends crowd the app's own thread off the cores (297-667), 10 was
    // 82-161. A connection stays taken until the event loop reads its answer, so more of them only help with more cores.
    max: 10,
    // After a failover the old server's connections may stay half-open, answering nothing: keepalives find them dead.
    // (No connect timeout: under load a statement may wait its turn for a connection for seconds, which is not an outage.)
    keepAlive: true,
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
    },
  });
  // An idle client's connection may be terminated (server restart, a dropped test database): the pool discards
  // that client, and without a listener pg would throw the error out of the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: namingPool(pool), controlClient: pg.Client }),
    ...(options.counter ? { log: options.counter.record } : {}),
  });
  const signals = new PostgresSignals({ connectionString: url });
  return {
    db,
    background: db,
    engine: 'postgres',
    signals,
    close: async () => {
      await signals.close();
      await db.destroy();
    },
  };
}

/** Opens the database at `location`. */
export function openDatabase(location: DatabaseLocation, options: DatabaseOptions = {}): DatabaseHandle {
  if (location.kind === 'postgres') return openPostgres(location.url, options);
  return openPglite(location.kind === 'pglite' ? location.directory : undefined, options);
}

/** The location the config selects: DATABASE_URL, else PGlite under DATA_DIR/db. */
export function databaseLocationFor(databaseUrl: string | undefined, dataDir: string): DatabaseLocation {
  return databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', directory: join(dataDir, 'db') };
}
