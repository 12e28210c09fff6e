import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { openDatabase, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { MaintenanceRepository } from '../../../src/repositories/maintenance-repository.ts';
import { PgliteCheckpoints, type CheckpointPolicy } from '../../../src/services/jobs/pglite-checkpoints.ts';
import { openTestDatabase } from '../../support/databases.ts';

const MEGABYTE = 1024 * 1024;
const POLICY: CheckpointPolicy = { walBytes: 4 * MEGABYTE, intervalMs: 60_000 };

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
  const clock = new ManualClock('2026-03-01T10:00:00Z');

  /** A PGlite in a data directory on disk, as `npm start` opens it, and its checkpoints. */
  const open = () => {
    directory = mkdtempSync(join(tmpdir(), 'brainstorm-checkpoints-'));
    const handle = openDatabase({ kind: 'pglite', directory: join(directory, 'db') });
    database = handle;
    const maintenance = new MaintenanceRepository(handle.db, 'pglite', handle.background);
    return { handle, maintenance, checkpoints: new PgliteCheckpoints({ maintenance, clock, policy: POLICY }) };
  };

  afterEach(async () => {
    await database?.close();
    database = null;
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps the data directory to two log segments however much is written', async () => {
    const { handle, maintenance, checkpoints } = open();
    await sql`create table filler (id serial primary key, body text)`.execute(handle.db);
    for (let step = 0; step < 12; step += 1) {
      await writeLog(handle, 5);
      expect(await checkpoints.checkpointIfDue()).toBe('checkpointed');
      expect(await maintenance.logSinceCheckpoint()).toBeLessThan(64 * 1024);
    }
    // 60 MB of log were written: without checkpoints they stay, four segments of 16 MB and more.
    expect(segments(join(directory, 'db')).length).toBeLessThanOrEqual(2);
    expect(checkpoints.stats()).toEqual({ checkpoints: 12, logBytesSinceCheckpoint: 0 });
    // Old segments are kept for reuse up to the same volume that makes the app checkpoint.
    const { rows } = await sql<{ max_wal_size: string }>`show max_wal_size`.execute(handle.db);
    expect(rows[0]?.max_wal_size).toBe('256MB');
  });

  it('leaves a quiet database alone, and checkpoints a little log once the interval has passed', async () => {
    const { handle, checkpoints } = open();
    await sql`create table filler (id serial primary key, body text)`.execute(handle.db);
    // Its start wrote some log, checkpointed once the interval has passed.
    await clock.advance(POLICY.intervalMs);
    expect(await checkpoints.checkpointIfDue()).toBe('checkpointed');
    // Another interval with nothing new: no checkpoint.
    await clock.advance(POLICY.intervalMs);
    expect(await checkpoints.checkpointIfDue()).toBe('not_due');
    await writeLog(handle, 0.5);
    expect(await checkpoints.checkpointIfDue()).toBe('checkpointed');
    await writeLog(handle, 0.5);
    // Less than the volume, and the interval not passed again since that checkpoint.
    await clock.advance(POLICY.intervalMs - 1);
    expect(await checkpoints.checkpointIfDue()).toBe('not_due');
    // What `/metrics` shows: the log that check read, not yet checkpointed.
    expect(checkpoints.stats().logBytesSinceCheckpoint).toBeGreaterThan(256 * 1024);
    await clock.advance(1);
    expect(await checkpoints.checkpointIfDue()).toBe('checkpointed');
  });

  it('leaves a Postgres server to its own checkpointer', async () => {
    const handle = await openTestDatabase('postgres');
    try {
      const maintenance = new MaintenanceRepository(handle.db, 'postgres');
      expect(await maintenance.logSinceCheckpoint()).toBeNull();
      expect(await new PgliteCheckpoints({ maintenance, clock, policy: { walBytes: 0, intervalMs: 0 } }).checkpointIfDue()).toBe('not_due');
    } finally {
      await handle.close();
    }
  });
});
