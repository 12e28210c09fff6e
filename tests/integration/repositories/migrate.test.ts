import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteHandle, PGLITE_TYPE_OPTIONS, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { migrateToLatest, MIGRATION_NAMES } from '../../../src/db/migrate.ts';
import { QueryCounter } from '../../../src/db/query-counter.ts';
import { ENGINES, openEmptyPostgres, type Engine } from '../../support/databases.ts';

/** An empty database whose statements are counted. */
async function emptyDatabase(engine: Engine, counter: QueryCounter): Promise<DatabaseHandle> {
  if (engine === 'pglite') return pgliteHandle(new PGlite(undefined, PGLITE_TYPE_OPTIONS), { counter });
  return openEmptyPostgres({ counter });
}

describe.each(ENGINES)('migrateToLatest on %s', (engine) => {
  let handle: DatabaseHandle | null = null;
  afterEach(async () => handle?.close());

  it('migrates an empty database, then finds a migrated one complete in a single statement', async () => {
    const counter = new QueryCounter();
    handle = await emptyDatabase(engine, counter);
    await migrateToLatest(handle.db);
    const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
    expect(recorded.rows.map((row) => row.name)).toEqual(MIGRATION_NAMES);

    counter.reset();
    await migrateToLatest(handle.db);
    expect(counter.total()).toBe(1);
  });

  it('hands a database that lacks a migration to the Migrator', async () => {
    handle = await emptyDatabase(engine, new QueryCounter());
    await migrateToLatest(handle.db);
    const last = MIGRATION_NAMES[MIGRATION_NAMES.length - 1] ?? '';
    await sql`delete from kysely_migration where name = ${last}`.execute(handle.db);
    // Its objects are still there, so running it again fails, and says which one it ran.
    await expect(migrateToLatest(handle.db)).rejects.toThrow(last);
  });
});
