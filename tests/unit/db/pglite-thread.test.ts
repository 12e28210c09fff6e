import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';

let handle: DatabaseHandle | null = null;
afterEach(async () => {
  await handle?.close();
  handle = null;
});

/** Embedded PGlite as the app opens it: on a thread of its own, migrated. */
async function threaded(): Promise<DatabaseHandle> {
  handle = openDatabase({ kind: 'memory' });
  await migrateToLatest(handle.db);
  return handle;
}

describe('PGlite on its own thread', () => {
  it('keeps the order of statements: a read sent after an awaited write sees it, also with many in flight', async () => {
    const { db } = await threaded();
    await sql`create table counters (id int primary key, value int not null)`.execute(db);
    await sql`insert into counters values (1, 0)`.execute(db);
    const reads = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        await sql`update counters set value = ${index + 1} where id = 1`.execute(db);
        return (await sql<{ value: number }>`select value from counters where id = 1`.execute(db)).rows[0]?.value;
      }),
    );
    expect(reads.every((value) => typeof value === 'number' && value >= 1)).toBe(true);
    expect((await sql<{ value: number }>`select value from counters where id = 1`.execute(db)).rows[0]?.value).toBe(50);
  });

  it('runs a transaction alone: no other statement interleaves, and a rollback leaves nothing', async () => {
    const { db } = await threaded();
    await sql`create table notes (id serial primary key, text text not null)`.execute(db);
    const failed = db.transaction().execute(async (transaction) => {
      await sql`insert into notes (text) values ('inside')`.execute(transaction);
      throw new Error('give up');
    });
    const outside = sql`insert into notes (text) values ('outside')`.execute(db);
    await expect(failed).rejects.toThrow('give up');
    await outside;
    expect((await sql<{ text: string }>`select text from notes order by id`.execute(db)).rows.map((row) => row.text)).toEqual(['outside']);
  });

  it('passes Postgres errors back with their fields (a unique violation keeps code 23505), and values keep their types', async () => {
    const { db } = await threaded();
    const sessions = new SessionsRepository(db);
    const now = new Date('2026-03-02T09:00:00.000Z');
    const input = {
      id: 's1',
      parentId: null,
      transport: 'memory',
      roomId: 'room-1',
      roomUrl: null,
      originChannelId: 'c',
      originMessageId: null,
      topic: 'Types',
      status: 'planning' as const,
      createdBy: { id: 'u', name: 'U' },
    };
    const created = await sessions.create(input, now);
    expect(created.createdAt).toEqual(now);
    expect(created.messageCount).toBe(0);
    expect(created.plannerState).toMatchObject({ questions: [] });
    await expect(sessions.create(input, now)).rejects.toMatchObject({ code: '23505' });
  });
});
