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

  it('closes PGlite once, whichever queue was used last', async () => {
    const database = pgliteThreadHandle({ loadDataDir: await pgliteTemplateDump() });
    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(database.background);
    expect(rows).toEqual([{ answer: 42 }]);
    await database.close();
    await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
  });
});
