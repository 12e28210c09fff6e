import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import {
  openDatabase,
  pgliteHandle,
  PGLITE_START_PARAMS,
  PGLITE_TYPE_OPTIONS,
  type DatabaseHandle,
  type DatabaseOptions,
} from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { dropTemplateDatabases, pgliteTemplatePath } from '../../src/db/pglite-template.ts';

/** The Postgres server tests use: TEST_DATABASE_URL, DATABASE_URL, or the machine's local one. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Both engines the repositories must work on. */
export const ENGINES = ['pglite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * Opens a fresh, migrated database: PGlite in memory, or a new throwaway database on the Postgres server
 * (dropped on close), so tests never see each other's rows.
 */
export async function openTestDatabase(engine: Engine): Promise<DatabaseHandle> {
  if (engine === 'pglite') return pgliteHandle(await clonePgliteTemplate());
  const handle = await openEmptyPostgres();
  await migrateToLatest(handle.db);
  return handle;
}

let templateDump: Promise<Blob> | null = null;

/**
 * A fresh, migrated in-memory PGlite, with the app's type parsers and its start parameters: loaded from a dump of the
 * migrated template, where initdb and the migrations take ~4 s. The dump is kept beside the app's template in
 * node_modules/.cache, so the test processes after the first one, and later runs, skip initdb altogether. The app's
 * small buffer pool matters here too: Postgres zeroes its pool as it starts, and a load takes ~0.35 s with 16 MB
 * against ~0.75 s with PGlite's default 128 MB.
 */
export async function clonePgliteTemplate(): Promise<PGlite> {
  const database = new PGlite({ loadDataDir: await pgliteTemplateDump(), ...PGLITE_TYPE_OPTIONS, startParams: PGLITE_START_PARAMS });
  await database.waitReady;
  return database;
}

/** A dump of the migrated template, for a PGlite on its own thread (`pgliteThreadHandle`) or in memory to start from. */
export function pgliteTemplateDump(): Promise<Blob> {
  templateDump ??= cachedDump(testDumpPath());
  return templateDump;
}

/** Named after the app's template, which changes with the PGlite version and the migrations. */
function testDumpPath(): string {
  const template = pgliteTemplatePath();
  return join(dirname(template), `${TEST_DUMP_PREFIX}${basename(template)}.tar`);
}
const TEST_DUMP_PREFIX = 'test-dump-';

async function cachedDump(path: string): Promise<Blob> {
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const database = new PGlite(undefined, { ...PGLITE_TYPE_OPTIONS, startParams: PGLITE_START_PARAMS });
  await migrateToLatest(pgliteHandle(database).db);
  await dropTemplateDatabases(database);
  const dump = await database.dumpDataDir('none');
  await database.close();
  keepDump(path, Buffer.from(await dump.arrayBuffer()));
  return dump;
}

/** Written whole under another name first: a test process reading it meanwhile never sees half a dump. */
function keepDump(path: string, bytes: Buffer): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    for (const name of readdirSync(dirname(path))) {
      if (name.startsWith(TEST_DUMP_PREFIX) && join(dirname(path), name) !== path) rmSync(join(dirname(path), name), { force: true });
    }
    const partial = `${path}.partial-${process.pid}`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } catch {
    // A read-only cache only costs the next test process its own initdb.
  }
}

/** A database handle for `createApp` in tests: a clone of the migrated template. */
export async function openAppTestDatabase(): Promise<DatabaseHandle> {
  return pgliteHandle(await clonePgliteTemplate());
}

/** A throwaway database on the Postgres server (for restarts: two apps in turn on the same data). */
export async function createThrowawayPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `brainstorm_test_${randomBytes(6).toString('hex')}`;
  const admin = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 }) }) });
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin);
      await admin.destroy();
    },
  };
}

/** A throwaway database on the Postgres server, empty, as a handle (`options.counter` counts its statements); closing it drops the database. */
export async function openEmptyPostgres(options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  const throwaway = await createThrowawayPostgres();
  const handle = openDatabase({ kind: 'postgres', url: throwaway.url }, options);
  return {
    ...handle,
    async close() {
      await handle.close();
      await throwaway.drop();
    },
  };
}
