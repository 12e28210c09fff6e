import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { QueryCounter } from '../../../src/db/query-counter.ts';
import type { Database } from '../../../src/db/schema.ts';
import { PgliteCheckpointer, type CheckpointPolicy } from '../../../src/db/pglite-checkpoints.ts';

const MEGABYTE = 1024 * 1024;
/** Polls never come by themselves here: each test calls `checkpointIfDue` when it means to. */
const POLICY: CheckpointPolicy = { walBytes: 4 * MEGABYTE, intervalMs: 60_000, pollMs: 3_600_000 };

/** The write-ahead log segment files of a PGlite data directory. */
const segments = (directory: string) => readdirSync(join(directory, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name));

/** Writes about `megabytes` of log: rows of text that compresses badly, as conversations and traces do. */
async function writeLog(database: DatabaseHandle, megabytes: number): Promise<void> {
  await sql`insert into filler (body) select md5(g::text || random()::text) || md5(random()::text) from generate_series(1, ${Math.round(megabytes * 7000)}) g`.execute(
    database.db,
  );
}

describe('checkpoints of embedded PGlite, which has no checkpointer process of its own', () => {
  let directory = '';
  let database: DatabaseHandle | null = null;
  let now = 0;

  const open = () => {
    directory = mkdtempSync(join(tmpdir(), 'brainstorm-checkpoints-'));
    database = openDatabase({ kind: 'pglite', directory: join(directory, 'db') }, { checkpoints: { policy: POLICY, now: () => now } });
    return database;
  };

  afterEach(async () => {
    await database?.close();
    database = null;
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps the data directory to two log segments however much is written', async () => {
    const handle = open();
    await sql`create table filler (id serial primary key, body text)`.execute(handle.db);
    for (let step = 0; step < 12; step += 1) {
      await writeLog(handle, 5);
      expect(await handle.checkpoints!.checkpointIfDue()).toBe('checkpointed');
      expect(await handle.checkpoints!.logSinceCheckpoint()).toBeLessThan(64 * 1024);
    }
    // 60 MB of log were written: without checkpoints they stay, four segments of 16 MB and more.
    expect(segments(join(directory, 'db')).length).toBeLessThanOrEqual(2);
    expect(handle.checkpoints!.stats()).toEqual({ checkpoints: 12, logBytesSinceCheckpoint: 0 });
    // Old segments are kept for reuse up to the same volume that makes the app checkpoint.
    const { rows } = await sql<{ max_wal_size: string }>`show max_wal_size`.execute(handle.db);
    expect(rows[0]?.max_wal_size).toBe('256MB');
  });

  it('leaves a quiet database alone, and checkpoints a little log once the interval has passed', async () => {
    const handle = open();
    await sql`create table filler (id serial primary key, body text)`.execute(handle.db);
    // Its start wrote some log, checkpointed once the interval has passed.
    now = POLICY.intervalMs;
    expect(await handle.checkpoints!.checkpointIfDue()).toBe('checkpointed');
    // Another interval with nothing new: no checkpoint.
    now += POLICY.intervalMs;
    expect(await handle.checkpoints!.checkpointIfDue()).toBe('not_due');
    await writeLog(handle, 0.5);
    expect(await handle.checkpoints!.checkpointIfDue()).toBe('checkpointed');
    await writeLog(handle, 0.5);
    // Less than the volume, and the interval not passed again since that checkpoint.
    now += POLICY.intervalMs - 1;
    expect(await handle.checkpoints!.checkpointIfDue()).toBe('not_due');
    // What `/metrics` shows: the log that poll read, not yet checkpointed.
    expect(handle.checkpoints!.stats().logBytesSinceCheckpoint).toBeGreaterThan(256 * 1024);
    now += 1;
    expect(await handle.checkpoints!.checkpointIfDue()).toBe('checkpointed');
  });

  it('sends one poll at a time: polls that come while the connection is held do not queue behind it', async () => {
    const counter = new QueryCounter();
    directory = mkdtempSync(join(tmpdir(), 'brainstorm-checkpoints-'));
    const handle = openDatabase({ kind: 'pglite', directory: join(directory, 'db') }, { counter, checkpoints: { policy: POLICY } });
    database = handle;
    await sql`select 1`.execute(handle.db);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const polling = new PgliteCheckpointer(handle.background, { policy: { ...POLICY, pollMs: 10 } });
    try {
      polling.start();
      await handle.db.transaction().execute(async (transaction) => {
        await sql`select 1`.execute(transaction);
        // Ten poll times pass while a transaction holds PGlite's one connection.
        for (let poll = 0; poll < 10; poll += 1) vi.advanceTimersByTime(10);
      });
      await polling.stop();
    } finally {
      vi.useRealTimers();
    }
    const polls = counter.top(50).filter((row) => row.sql.includes('pg_control_checkpoint'));
    expect(polls).toEqual([{ sql: expect.any(String), count: 1 }]);
  });

  it('polls by itself, and reports a check that failed instead of dropping it', async () => {
    // A database that refuses every connection.
    const unreachable = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 }) }),
    });
    const failures: unknown[] = [];
    const polling = new PgliteCheckpointer(unreachable, { policy: { ...POLICY, pollMs: 5 } });
    const reported = new Promise<void>((resolve) =>
      polling.reportFailuresTo((error) => {
        failures.push(error);
        resolve();
      }),
    );
    polling.start();
    await reported;
    await polling.stop();
    await unreachable.destroy();
    expect(failures[0]).toBeInstanceOf(Error);
  });
});
