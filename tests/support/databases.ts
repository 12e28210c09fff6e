import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, pgliteHandle, PGLITE_TYPE_OPTIONS, type DatabaseHandle, type DatabaseOptions } from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { dropTemplateDatabases } from '../../src/db/pglite-template.ts';

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

let template: Promise<PGlite> | null = null;

/**
 * A fresh, migrated in-memory PGlite in milliseconds: initdb and the migrations run once per test process
 * on a template, and every test gets a clone of it.
 */
export async function clonePgliteTemplate(): Promise<PGlite> {
  const clone = await (await migratedTemplate()).clone();
  return clone as PGlite;
}

function migratedTemplate(): Promise<PGlite> {
  template ??= (async () => {
    const database = new PGlite(undefined, PGLITE_TYPE_OPTIONS);
    const handle = pgliteHandle(database);
    await migrateToLatest(handle.db);
    await dropTemplateDatabases(database);
    return database;
  })();
  return template;
}

/** A dump of the migrated template, for a PGlite on its own thread (`pgliteThreadHandle`) to start from. */
export async function pgliteTemplateDump(): Promise<Blob> {
  return (await migratedTemplate()).dumpDataDir('none');
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
