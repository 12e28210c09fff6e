import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { pgliteHandle, PGLITE_TYPE_OPTIONS } from '../../src/db/create-database.ts';
import { HOUSEKEEPING_JOB } from '../../src/services/jobs/housekeeping.ts';
import { clonePgliteTemplate } from '../support/databases.ts';
import { MemoryTransport } from '../support/memory-transport.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-app-start-'));
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const listeningServers = () => process.getActiveResourcesInfo().filter((name) => name === 'TCPServerWrap').length;

it('fails to start on a schema it cannot migrate, naming the migration, and leaves nothing listening', async () => {
  const database = new PGlite(undefined, PGLITE_TYPE_OPTIONS);
  // A table of the first migration's name, in another shape: that migration cannot run.
  await database.exec('create table sessions (unrelated integer)');
  const handle = pgliteHandle(database);
  // No model key: demo mode, whose simulated models listen on a port while the app is built.
  const config = buildConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const before = listeningServers();
  await expect(createApp({ config, database: handle })).rejects.toThrow(/migration 0001-initial failed/);
  // A closed server's handle goes a moment after its close callback; one left listening never goes.
  await vi.waitFor(() => expect(listeningServers()).toBe(before));
  await handle.close();
});

it('queues its housekeeping once when it starts with a worker, however often it starts', async () => {
  const handle = pgliteHandle(await clonePgliteTemplate());
  const config = buildConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const pending = async () =>
    (await handle.db.selectFrom('jobs').select(['kind', 'run_at']).where('kind', '=', HOUSEKEEPING_JOB).where('status', '=', 'pending').execute()).length;
  for (let start = 0; start < 2; start += 1) {
    const app = await createApp({ config, database: { ...handle, close: async () => undefined }, transports: [new MemoryTransport()] });
    await app.start();
    expect(await pending()).toBe(1);
    await app.stop();
  }
  await handle.close();
});
