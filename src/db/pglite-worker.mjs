// @ts-check
/**
 * The thread embedded PGlite runs on (see pglite-thread.ts). PGlite executes every statement synchronously in
 * WebAssembly: on the main thread each one stalls the event loop (streams, timers, every other session), here it
 * runs beside it on another core. Plain JavaScript, so it starts the same under tsx, vitest and the bundle of `npm start`.
 *
 * Messages in: { type: 'open', dataDir, loadDataDir, seedFrom, startParams } once, then { id, type: 'query' | 'exec', sql, params }
 * and { id, type: 'close' }. Out: { id, rows, affectedRows } or { id, error }.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { NamedStatements } from './named-statements.mjs';
import { copyTemplate } from './template-copy.mjs';

const INT8 = 20;
const NUMERIC = 1700;

/** @param {unknown} error */
function describe(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  // The fields Postgres errors carry (code, constraint...) travel with the message, as the main-thread PGlite had them.
  const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => ['string', 'number'].includes(typeof value)));
  return { ...fields, name: error.name, message: error.message };
}

/**
 * A first start copies the template (~0.1-0.3 s of file system calls on this thread) while V8 compiles PGlite's
 * WebAssembly on its own threads, instead of one after the other. The compile is started before the copy blocks this
 * thread, so the file is read synchronously.
 * @param {{ dataDir?: string, seedFrom?: string }} message
 * @returns {Promise<{ pgliteWasmModule?: WebAssembly.Module }>}
 */
async function seedDataDirectory(message) {
  if (!message.seedFrom || !message.dataDir) return {};
  const compiling = globalThis.WebAssembly.compile(readFileSync(fileURLToPath(import.meta.resolve('@electric-sql/pglite/pglite.wasm'))));
  // Settled below in any case; without this a failed copy would leave it unhandled.
  compiling.catch(() => undefined);
  copyTemplate(message.seedFrom, message.dataDir);
  return { pgliteWasmModule: await compiling };
}

/** @type {import('@electric-sql/pglite').PGlite | null} */
let database = null;
/** @type {NamedStatements | null} */
let statements = null;

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread');

port.on(
  'message',
  async (
    /** @type {{ id: number, type: string, sql?: string, params?: unknown[], dataDir?: string, loadDataDir?: Blob, seedFrom?: string, startParams?: string[] }} */ message,
  ) => {
    try {
      if (message.type === 'open') {
        const compiled = await seedDataDirectory(message);
        database = new PGlite(message.dataDir, {
          ...compiled,
          parsers: { [INT8]: (/** @type {string} */ value) => Number(value), [NUMERIC]: (/** @type {string} */ value) => Number(value) },
          serializers: { [types.INT8]: (/** @type {unknown} */ value) => String(value) },
          ...(message.loadDataDir ? { loadDataDir: message.loadDataDir } : {}),
          startParams: [...PGlite.defaultStartParams, ...(message.startParams ?? [])],
        });
        await database.waitReady;
        statements = new NamedStatements(database);
        port.postMessage({ id: message.id, rows: [], affectedRows: 0 });
        return;
      }
      if (!database || !statements) throw new Error('the database is not open');
      if (message.type === 'close') {
        if (!database.closed) await database.close();
        port.postMessage({ id: message.id, rows: [], affectedRows: 0 });
        return;
      }
      if (message.type === 'exec') {
        const results = await statements.exec(message.sql ?? '');
        const last = results[results.length - 1];
        port.postMessage({ id: message.id, rows: last?.rows ?? [], affectedRows: last?.affectedRows ?? 0 });
        return;
      }
      const result = await statements.query(message.sql ?? '', message.params ?? []);
      port.postMessage({ id: message.id, rows: result.rows, affectedRows: result.affectedRows ?? 0 });
    } catch (error) {
      port.postMessage({ id: message.id, error: describe(error) });
    }
  },
);
