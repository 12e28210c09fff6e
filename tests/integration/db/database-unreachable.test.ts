/**
 * The pg driver against a Postgres server that goes away (a proxy that drops every connection and refuses new ones):
 * each failure of a connection is a typed DatabaseUnreachableError, a wrong statement is not, a connection the
 * server drops mid-transaction does not crash the process, and the pool serves again once the server is back.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnreachableError, isDatabaseUnreachable } from '../../../src/core/database-unreachable.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { openDatabase, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { migrateWhenReachable } from '../../../src/db/database-wait.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import { createThrowawayPostgres } from '../../support/databases.ts';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.ts';

let database: { url: string; drop(): Promise<void> };
let proxy: FaultProxy;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createThrowawayPostgres();
  const server = new URL(database.url);
  proxy = await startFaultProxy({ host: server.hostname, port: Number(server.port || 5432) });
  handle = openDatabase({ kind: 'postgres', url: proxy.through(database.url) });
});
afterAll(async () => {
  await proxy?.up();
  await handle?.close();
  await proxy?.close();
  await database?.drop();
});

const selectOne = async () => (await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]?.one;

/** The error `work` rejects with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('it did not fail');
}

describe('a Postgres server that goes away', () => {
  it('fails a wrong statement as itself, not as an unreachable server', async () => {
    const error = await failureOf(() => sql`select * from no_such_table`.execute(handle.db));
    expect(isDatabaseUnreachable(error)).toBe(false);
    expect((error as { code?: string }).code).toBe('42P01');
  });

  it('fails a statement as unreachable while the server is away, and serves again once it is back', async () => {
    expect(await selectOne()).toBe(1);
    await proxy.down();
    const error = await failureOf(selectOne);
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect(isDatabaseUnreachable(new Error('wrapped by a service', { cause: error }))).toBe(true);
    await proxy.up();
    expect(await selectOne()).toBe(1);
  });

  it('fails a statement as unreachable when its answer is lost, though the server ran it, named or not', async () => {
    await sql`CREATE TABLE lost_answer_probe (id int PRIMARY KEY)`.execute(handle.db);
    const direct = openDatabase({ kind: 'postgres', url: database.url });
    try {
      // Once answered (the connection prepares it: Parse), then lost twice: on that connection by its name alone (Bind),
      // then on the new connection the pool opens after the drop (Parse again).
      const insert = (id: number) => sql`insert into "lost_answer_probe" (id) values (${id})`.execute(handle.db);
      await insert(1);
      for (const id of [2, 3]) {
        const lost = proxy.loseAnswerTo('insert into "lost_answer_probe"');
        const error = await failureOf(() => insert(id));
        expect(await lost).toBe(true);
        expect(error).toBeInstanceOf(DatabaseUnreachableError);
        const rows = await sql<{ id: number }>`select id from lost_answer_probe where id = ${id}`.execute(direct.db);
        expect(rows.rows).toEqual([{ id }]);
        await proxy.up();
      }
    } finally {
      await direct.close();
    }
  });

  it('survives the server dropping a connection in the middle of a transaction', async () => {
    const transaction = handle.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      // The connection is checked out between two statements when the server goes away: pg emits 'error' on the
      // client, which would end the process (here: fail the run with an uncaught exception) with no listener.
      await proxy.down();
      await sql`select 2`.execute(trx);
    });
    const error = await failureOf(() => transaction);
    expect(isDatabaseUnreachable(error)).toBe(true);
    await proxy.up();
    expect(await selectOne()).toBe(1);
  });

  it('migrates at start once a server that was not up yet accepts connections, and gives up after its patience', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    const logger = createLogger({ level: 'silent', secrets: [] });
    await proxy.down();
    const gaveUp = migrateWhenReachable(handle.db, { clock, logger, patienceMs: 10_000 });
    gaveUp.catch(() => undefined);
    await settleWithClock(
      gaveUp.catch(() => undefined),
      clock,
      2000,
    );
    await expect(gaveUp).rejects.toSatisfy(isDatabaseUnreachable);
    const started = migrateWhenReachable(handle.db, { clock, logger });
    while (clock.pendingSleepers === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    await clock.advance(2000);
    while (clock.pendingSleepers === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    await proxy.up();
    await settleWithClock(started, clock, 2000);
    const migrated = await sql<{ name: string }>`select name from kysely_migration`.execute(handle.db);
    expect(migrated.rows.length).toBeGreaterThan(10);
  });
});
