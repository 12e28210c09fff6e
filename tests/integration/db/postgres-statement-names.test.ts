import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { StatementNames } from '../../../src/db/postgres-statement-names.ts';
import type { Database } from '../../../src/db/schema.ts';
import { openEmptyPostgres } from '../../support/databases.ts';

/** The texts prepared on the connection that runs this, by name (read by a statement that is itself not named). */
async function preparedOnThisConnection(db: Kysely<Database>): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
  return new Map(rows.map((row) => [row.statement, row.name]));
}

describe('statement names on a Postgres server', () => {
  let handle: DatabaseHandle;

  beforeEach(async () => {
    handle = await openEmptyPostgres();
    await sql`create table notes (id int8 primary key, body text, at timestamptz)`.execute(handle.db);
    await sql`insert into notes values (1, 'first', '2026-03-01T10:00:00Z')`.execute(handle.db);
  });
  afterEach(async () => {
    await handle.close();
  });

  it('prepares a data statement once per connection under one name, with the rows an unnamed run returns', async () => {
    await handle.db.connection().execute(async (db) => {
      const select = (id: number) =>
        db
          .selectFrom('notes' as never)
          .selectAll()
          .where(sql.ref('id'), '=', id)
          .execute();
      const first = await select(1);
      const second = await select(1);
      expect(second).toEqual(first);
      expect(first).toEqual([{ id: 1, body: 'first', at: new Date('2026-03-01T10:00:00Z') }]);
      const text = db
        .selectFrom('notes' as never)
        .selectAll()
        .where(sql.ref('id'), '=', 1)
        .compile().sql;
      const prepared = await preparedOnThisConnection(db);
      expect(prepared.get(text)).toMatch(/^brainstorm_\d+$/);
      // The reading statement is a select too, and named: the text it ran under is one of the two prepared.
      expect([...prepared.keys()].filter((statement) => statement === text)).toHaveLength(1);
    });
  });

  it('leaves transactions, schema changes and a conflict target whose predicate is bound unnamed', async () => {
    await handle.db.connection().execute(async (db) => {
      await db.transaction().execute(async (transaction) => {
        await sql`insert into notes values (${2}, ${'second'}, now())`.execute(transaction);
      });
      await sql`create unique index notes_body on notes (body) where id > 0`.execute(db);
      await sql`insert into notes values (${3}, ${'first'}, now()) on conflict (body) where id > ${0} do nothing`.execute(db);
      const prepared = await preparedOnThisConnection(db);
      expect([...prepared.keys()].some((statement) => /^\s*(begin|commit|create)/i.test(statement))).toBe(false);
      expect([...prepared.keys()].some((statement) => statement.includes('on conflict'))).toBe(false);
      expect([...prepared.keys()].some((statement) => statement.startsWith('insert into notes values'))).toBe(true);
    });
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from notes`.execute(handle.db);
    expect(rows[0]?.count).toBe(2);
  });

  it('runs a prepared text again after another process added a column to its table, with the new column', async () => {
    await handle.db.connection().execute(async (db) => {
      const all = () => sql<Record<string, unknown>>`select * from notes order by id`.execute(db);
      expect((await all()).rows[0]).toEqual({ id: 1, body: 'first', at: new Date('2026-03-01T10:00:00Z') });
      // Altered on another connection of the pool, as another process would. Postgres refuses a prepared statement
      // whose result columns changed ("cached plan must not change result type").
      await sql`alter table notes add column mood text default 'calm'`.execute(handle.db);
      expect((await all()).rows[0]).toEqual({ id: 1, body: 'first', at: new Date('2026-03-01T10:00:00Z'), mood: 'calm' });
    });
  });
});

describe('StatementNames', () => {
  it('names each plain data text once and stops naming new texts at its capacity', () => {
    const names = new StatementNames(2);
    const first = names.nameFor('select 1');
    expect(first).toMatch(/^brainstorm_\d+$/);
    expect(names.nameFor('select 1')).toBe(first);
    expect(names.nameFor('begin')).toBeUndefined();
    expect(names.nameFor('update notes set body = $1')).not.toBe(first);
    expect(names.nameFor('select 2')).toBeUndefined();
    expect(names.nameFor('select 1')).toBe(first);
  });

  it('gives a renamed text a name never used before', () => {
    const names = new StatementNames();
    const first = names.nameFor('select * from notes');
    const renamed = names.rename('select * from notes');
    expect(renamed).not.toBe(first);
    expect(names.nameFor('select * from notes')).toBe(renamed);
  });
});
