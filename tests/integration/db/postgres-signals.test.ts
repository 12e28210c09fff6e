import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { PostgresSignals } from '../../../src/db/postgres-signals.ts';
import { createThrowawayPostgres } from '../../support/databases.ts';
import { waitUntil } from '../../support/app-cluster.ts';

describe('PostgresSignals on a Postgres server', () => {
  let database: { url: string; drop(): Promise<void> };
  let handle: DatabaseHandle;
  const opened: PostgresSignals[] = [];

  beforeEach(async () => {
    database = await createThrowawayPostgres();
    handle = openDatabase({ kind: 'postgres', url: database.url });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((signals) => signals.close()));
    await handle.close();
    await database.drop();
  });

  function signals(): PostgresSignals {
    const made = new PostgresSignals({ connectionString: database.url, reconnectMs: 20 });
    opened.push(made);
    return made;
  }

  /** A notice as a process sends it (the repositories' `pg_notify`). */
  async function notify(channel: string, payload: string): Promise<void> {
    await sql`select pg_notify(${channel}, ${payload})`.execute(handle.db);
  }

  /** The server processes of the connections listening on the database. */
  async function listeners(): Promise<number[]> {
    const { rows } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN %'`.execute(handle.db);
    return rows.map((row) => row.pid);
  }

  it('carries a notice from one process to every other listening on the channel, and none of another channel', async () => {
    const [sender, receiver] = [signals(), signals()];
    const heard: string[] = [];
    const other: string[] = [];
    receiver.listen('sessions', (payload) => heard.push(payload));
    receiver.listen('elsewhere', (payload) => other.push(payload));
    expect(await receiver.settled()).toBe(true);
    await notify('sessions', 'ses_1');
    await waitUntil(async () => heard.length === 1, 'the notice', 10_000, 10);
    expect(heard).toEqual(['ses_1']);
    expect(other).toEqual([]);
    // A process that listens to nothing opens no listening connection.
    expect(sender.listening).toBe(false);
  });

  it('listens again after its connection is cut (a server restart), says so, and stops hearing once unsubscribed', async () => {
    const receiver = signals();
    const heard: string[] = [];
    let connections = 0;
    receiver.onListening(() => (connections += 1));
    const stop = receiver.listen('sessions', (payload) => heard.push(payload));
    await waitUntil(async () => (await listeners()).length === 1 && connections === 1, 'the listening connection', 10_000, 10);
    const [cut] = await listeners();
    await sql`select pg_terminate_backend(${cut})`.execute(handle.db);
    await waitUntil(
      async () => {
        const now = await listeners();
        return now.length === 1 && now[0] !== cut && (await receiver.settled());
      },
      'a new listening connection',
      10_000,
      10,
    );
    // Told each time it listens again: what was sent while it was cut was not heard.
    expect(connections).toBe(2);
    await notify('sessions', 'after the cut');
    await waitUntil(async () => heard.length === 1, 'the notice after the cut', 10_000, 10);
    // Notices arrive in the order they were sent: once a later one is heard elsewhere, the earlier one was delivered.
    const later: string[] = [];
    receiver.listen('sessions', (payload) => later.push(payload));
    stop();
    await notify('sessions', 'unheard');
    await notify('sessions', 'marker');
    await waitUntil(async () => later.includes('marker'), 'the later notice', 10_000, 10);
    expect(heard).toEqual(['after the cut']);
  });

  it('closes its listening connection, and makes none once closed', async () => {
    const receiver = signals();
    receiver.listen('sessions', () => undefined);
    await waitUntil(async () => (await listeners()).length === 1, 'the listening connection', 10_000, 10);
    await receiver.close();
    await waitUntil(async () => (await listeners()).length === 0, 'the connection closed', 10_000, 10);
    receiver.listen('sessions', () => undefined);
    expect(receiver.listening).toBe(false);
  });
});
