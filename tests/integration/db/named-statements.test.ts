import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGLITE_START_PARAMS, PGLITE_TYPE_OPTIONS, pgliteHandle } from '../../../src/db/create-database.ts';
import { NamedStatements, REPLAN_AFTER_RUNS } from '../../../src/db/named-statements.mjs';
import { PgliteThread } from '../../../src/db/pglite-thread.ts';

/** The names of the statements prepared in the session, read past the named path (PGlite's own query). */
async function preparedNames(database: PGlite): Promise<string[]> {
  const result = await database.query<{ name: string }>('select name from pg_prepared_statements order by name');
  return result.rows.map((row) => row.name);
}

async function errorOf(action: Promise<unknown>): Promise<Record<string, unknown>> {
  const error: unknown = await action.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Record<string, unknown>;
}

describe('named statements on PGlite', () => {
  let template: Blob;
  let database: PGlite;
  let statements: NamedStatements;

  beforeAll(async () => {
    const seed = new PGlite(undefined, { ...PGLITE_TYPE_OPTIONS, startParams: PGLITE_START_PARAMS });
    await seed.exec(`
      create table notes (id int8 primary key, body text, tags text[], data jsonb, at timestamptz, done boolean);
      insert into notes values (1, 'first', '{a,b}', '{"k": 1}', '2026-03-01T10:00:00Z', false);`);
    template = await seed.dumpDataDir('none');
    await seed.close();
  });

  beforeEach(async () => {
    // The app's start parameters (a 16 MB buffer pool): a start takes half the time of PGlite's default.
    database = new PGlite({ ...PGLITE_TYPE_OPTIONS, startParams: PGLITE_START_PARAMS, loadDataDir: template });
    statements = new NamedStatements(database);
  });
  afterEach(async () => database.close());

  it('returns what PGlite.query returns: the same parsed rows, affected rows and errors', async () => {
    const select = 'select * from notes where id = $1 and body = $2';
    expect(await statements.query(select, [1, 'first'])).toEqual({ rows: (await database.query(select, [1, 'first'])).rows, affectedRows: 0 });
    expect((await statements.query<{ at: Date; data: unknown; tags: string[] }>(select, [1, 'first'])).rows[0]).toMatchObject({
      id: 1,
      tags: ['a', 'b'],
      data: { k: 1 },
      at: new Date('2026-03-01T10:00:00Z'),
      done: false,
    });

    const insert = 'insert into notes (id, body, data, at, tags) values ($1, $2, $3, $4, $5) returning id, data, at, tags';
    const inserted = await statements.query(insert, [2, null, { nested: [1, 2] }, new Date('2026-03-02T00:00:00Z'), ['x', 'y z']]);
    expect(inserted).toEqual({ rows: [{ id: 2, data: { nested: [1, 2] }, at: new Date('2026-03-02T00:00:00Z'), tags: ['x', 'y z'] }], affectedRows: 1 });
    expect(await statements.query('update notes set done = $1 where id > $2', [true, 0])).toEqual({ rows: [], affectedRows: 2 });

    const named = await errorOf(statements.query(insert, [1, 'again', null, null, null]));
    const unnamed = await errorOf(database.query(insert, [1, 'again', null, null, null]));
    expect(named).toMatchObject({ code: '23505', constraint: 'notes_pkey', message: unnamed['message'] });
    // The failed statement leaves the session usable, its prepared text too.
    expect((await statements.query(select, [2, null])).rows).toEqual([]);
  });

  it('sends an ON CONFLICT whose arbiter predicate holds a value the unnamed way, so a generic plan never loses its index', async () => {
    await database.exec(`create table claims (id serial primary key, queue text, status text);
      create unique index one_open_claim on claims (queue) where status = 'open';`);
    const claim = 'insert into claims (queue, status) values ($1, $2) on conflict (queue) where status = $2 do nothing returning id';
    const literal = "insert into claims (queue, status) values ($1, 'open') on conflict (queue) where status = 'open' do nothing returning id";
    // A generic plan (Postgres's choice from a named statement's sixth run on) cannot see that `status = $2` is the
    // index's predicate; the unnamed statement is planned for its values every run.
    for (let run = 0; run < 8; run++) expect((await statements.query(claim, [`q${run % 2}`, 'open'])).rows).toHaveLength(run < 2 ? 1 : 0);
    for (let run = 0; run < 8; run++) expect((await statements.query(literal, [`r${run % 2}`])).rows).toHaveLength(run < 2 ? 1 : 0);
    expect(statements.size).toBe(1);
    expect((await database.query<{ statement: string }>('select statement from pg_prepared_statements')).rows).toEqual([{ statement: literal }]);
  });

  it('plans a text afresh after REPLAN_AFTER_RUNS runs, closing its old name in the same trip', async () => {
    const select = 'select body from notes where id = $1';
    for (let run = 0; run < REPLAN_AFTER_RUNS; run++) await statements.query(select, [1]);
    expect(await preparedNames(database)).toEqual(['brainstorm_1']);
    expect((await statements.query(select, [1])).rows).toEqual([{ body: 'first' }]);
    expect(await preparedNames(database)).toEqual(['brainstorm_2']);
    expect(statements.size).toBe(1);
  });

  it('names statements inside a transaction too', async () => {
    await statements.query('begin');
    await statements.query('select body from notes where id = $1', [1]);
    await statements.query('rollback');
    expect(await preparedNames(database)).toEqual(['brainstorm_1']);
  });

  it('prepares each text once, and sends utility statements the unnamed way', async () => {
    for (let id = 0; id < 5; id++) await statements.query('select body from notes where id = $1', [id]);
    await statements.query('begin');
    await statements.query('select body from notes where id = $1', [1]);
    await statements.query('commit');
    expect(statements.size).toBe(1);
    expect(await preparedNames(database)).toEqual(['brainstorm_1']);
  });

  it('keeps at most its capacity prepared, closing the least recently run text', async () => {
    const small = new NamedStatements(database, 2);
    await small.query('select 1 as one');
    await small.query('select 2 as two');
    await small.query('select 1 as one');
    await small.query('select 3 as three');
    expect(small.size).toBe(2);
    expect(await preparedNames(database)).toEqual(['brainstorm_1', 'brainstorm_3']);
    expect((await small.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it('follows a schema change: through it, the texts are prepared afresh; behind its back, a changed result is re-prepared once', async () => {
    const select = 'select * from notes where id = $1';
    await statements.query(select, [1]);
    await statements.query('alter table notes add column color text');
    expect(statements.size).toBe(0);
    expect((await statements.query(select, [1])).rows[0]).toHaveProperty('color', null);

    await database.query('alter table notes add column size int');
    expect((await statements.query(select, [1])).rows[0]).toHaveProperty('size', null);

    // Inside a transaction the refusal has aborted it: the error stands, and the next run outside prepares afresh.
    await database.query('alter table notes add column weight int');
    await statements.query('begin');
    expect(await errorOf(statements.query(select, [1]))).toMatchObject({ code: '0A000' });
    await statements.query('rollback');
    expect((await statements.query(select, [1])).rows[0]).toHaveProperty('weight', null);
  });

  it('serves the Kysely handle of a PGlite on this thread and the PGlite thread alike', async () => {
    const handle = pgliteHandle(database);
    expect((await sql<{ body: string }>`select body from notes where id = ${1}`.execute(handle.db)).rows).toEqual([{ body: 'first' }]);
    expect(await preparedNames(database)).toHaveLength(1);

    const thread = new PgliteThread();
    try {
      await thread.exec('create table pairs (id int primary key, value jsonb)');
      await thread.query('insert into pairs values ($1, $2)', [1, { on: true }]);
      await thread.query('insert into pairs values ($1, $2)', [2, { on: false }]);
      expect((await thread.query('select value from pairs where id = $1', [2])).rows).toEqual([{ value: { on: false } }]);
      expect((await thread.query<{ count: number }>('select count(*)::int as count from pg_prepared_statements')).rows).toEqual([{ count: 3 }]);
      expect(await errorOf(thread.query('insert into pairs values ($1, $2)', [1, null]))).toMatchObject({ code: '23505' });
    } finally {
      await thread.close();
    }
  });
});
