import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteThreadHandle, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { pgliteTemplateDump } from '../../support/databases.ts';

describe("statements nobody waits on, on PGlite's one connection", () => {
  let handle: DatabaseHandle | null = null;

  afterEach(async () => {
    await handle?.close();
    handle = null;
  });

  it('lets a turn statement queued after trace writes run before them', async () => {
    const database = pgliteThreadHandle({ loadDataDir: await pgliteTemplateDump() });
    handle = database;
    const order: string[] = [];
    let queued: Promise<unknown>[] = [];
    await database.db.transaction().execute(async (transaction) => {
      await sql`select 1`.execute(transaction);
      // The transaction holds the connection: two background writes queue, then a turn's statement.
      queued = [
        sql`select 2`.execute(database.background).then(() => order.push('trace 1')),
        sql`select 3`.execute(database.background).then(() => order.push('trace 2')),
        sql`select 4`.execute(database.db).then(() => order.push('turn')),
      ];
    });
    await Promise.all(queued);
    expect(order).toEqual(['turn', 'trace 1', 'trace 2']);
  });

  it("sends a turn's statement while the one ahead of it still runs, and no statement lands inside a later transaction", async () => {
    const database = pgliteThreadHandle({ loadDataDir: await pgliteTemplateDump() });
    handle = database;
    await sql`create table marks (id int primary key)`.execute(database.db);
    // A statement that keeps PGlite busy for a while, then five inserts sent behind it without waiting for it.
    const slow = sql`select count(*) from generate_series(1, 2000000)`.execute(database.db);
    const inserts = [1, 2, 3, 4, 5].map((id) => sql`insert into marks values (${id})`.execute(database.db));
    await new Promise((resolve) => setImmediate(resolve));
    expect(database.connectionUse?.().inFlight).toBe(6);
    // A transaction begun now runs after them, and its rollback takes none of them along.
    const rolledBack = database.db.transaction().execute(async (transaction) => {
      await sql`insert into marks values (6)`.execute(transaction);
      throw new Error('undo');
    });
    await expect(rolledBack).rejects.toThrow('undo');
    await Promise.all([slow, ...inserts]);
    const { rows } = await sql<{ id: number }>`select id from marks order by id`.execute(database.db);
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('closes PGlite once, whichever queue was used last', async () => {
    const database = pgliteThreadHandle({ loadDataDir: await pgliteTemplateDump() });
    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(database.background);
    expect(rows).toEqual([{ answer: 42 }]);
    await database.close();
    await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
  });
});
