import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PgliteThread } from '../../../src/db/pglite-thread.ts';
import { prestartPgliteWorker, takePrestartedPgliteWorker } from '../../../src/db/pglite-worker-prestart.mjs';

const PGLITE_WORKER = new URL('../../../src/db/pglite-worker.mjs', import.meta.url);

let thread: PgliteThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
  await takePrestartedPgliteWorker(PGLITE_WORKER)?.terminate();
});

/** A worker module that fails as it loads. */
function failingWorker(): URL {
  const file = join(mkdtempSync(join(tmpdir(), 'prestart-')), 'failing-worker.mjs');
  writeFileSync(file, "throw new Error('cannot start');\n");
  return pathToFileURL(file);
}

describe('a PGlite thread started before the app loads', () => {
  it('is the one the app takes, once, and the database runs on it', async () => {
    prestartPgliteWorker(PGLITE_WORKER);
    prestartPgliteWorker(PGLITE_WORKER);
    thread = new PgliteThread();
    // Taken by the PgliteThread: nothing is left waiting, and a second prestart call above started no second worker.
    expect(takePrestartedPgliteWorker(PGLITE_WORKER)).toBeUndefined();
    expect((await thread.query<{ answer: number }>('select 6 * 7 as answer')).rows).toEqual([{ answer: 42 }]);
  });

  it('is left for a worker of another module, and one that failed to start is not handed over', async () => {
    const failing = failingWorker();
    prestartPgliteWorker(failing);
    expect(takePrestartedPgliteWorker(PGLITE_WORKER)).toBeUndefined();
    const worker = takePrestartedPgliteWorker(failing);
    expect(worker).toBeDefined();

    prestartPgliteWorker(failing);
    expect(await waitForExitOfPrestarted(failing)).toBe(true);
    expect(takePrestartedPgliteWorker(failing)).toBeUndefined();
    await worker?.terminate();
  });
});

/** Waits until the worker prestarted for `url` has stopped, without taking it from its slot. */
async function waitForExitOfPrestarted(url: URL): Promise<boolean> {
  const slot = (globalThis as unknown as Record<symbol, { worker: import('node:worker_threads').Worker; url: string; exited: boolean } | undefined>)[
    Symbol.for('brainstorm.prestartedPgliteWorker')
  ];
  if (!slot || slot.url !== url.href) return false;
  // Not events.once: it rejects on the 'error' the worker emits before it exits.
  if (!slot.exited) await new Promise((resolve) => slot.worker.on('exit', resolve));
  return slot.exited;
}
