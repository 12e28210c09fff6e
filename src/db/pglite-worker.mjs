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
 * PGlite's WebAssembly, compiled by V8 on its own threads from the moment this thread starts: under npm start that is
 * before the app has loaded (see pglite-worker-prestart.mjs). When the open comes sooner, a first start's template
 * copy (~500 files: 0.1-0.6 s of file system calls here, by how fast the disk creates them) runs meanwhile.
 * Undefined when it fails: PGlite then compiles it itself.
 * @type {Promise<WebAssembly.Module | undefined>}
 */
const compiledWasm = globalThis.WebAssembly.compile(readFileSync(fileURLToPath(import.meta.resolve('@electric-sql/pglite/pglite.wasm')))).catch(
  () => undefined,
);
// Imported once the compile has started: loading PGlite's JavaScript takes this thread a while too.
const [{ PGlite, types }, { NamedStatements }] = await Promise.all([import('@electric-sql/pglite'), import('./named-statements.mjs')]);

/**
 * Copies the template into a fresh data directory when asked to, and hands over the compiled WebAssembly.
 * @param {{ dataDir?: string, seedFrom?: string }} message
 * @returns {Promise<{ pgliteWasmModule?: WebAssembly.Module }>}
 */
async function prepare(message) {
  if (message.seedFrom && message.dataDir) copyTemplate(message.seedFrom, message.dataDir);
  const pgliteWasmModule = await compiledWasm;
  return pgliteWasmModule ? { pgliteWasmModule } : {};
}

/** @type {import('@electric-sql/pglite').PGlite | null} */
let database = null;
/** @type {NamedStatements | null} */
let statements = null;

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread');

/** Why the open failed: every later message is answered with it. @type {unknown} */
let openFailure = null;

/**
 * One message, answered.
 * @param {{ id: number, type: string, sql?: string, params?: unknown[], dataDir?: string, loadDataDir?: Blob, seedFrom?: string, startParams?: string[] }} message
 */
async function handle(message) {
  try {
    if (message.type === 'open') {
      const compiled = await prepare(message);
      database = new PGlite(message.dataDir, {
        ...compiled,
        parsers: { [INT8]: (/** @type {string} */ value) => Number(value), [NUMERIC]: (/** @type {string} */ value) => Number(value) },
        serializers: { [types.INT8]: (/** @type {unknown} */ value) => String(value) },
        ...(message.loadDataDir ? { loadDataDir: message.loadDataDir } : {}),
        startParams: [...PGlite.defaultStartParams, ...(message.startParams ?? [])],
      });
      await database.waitReady;
      statements = new NamedStatements(database);
      port?.postMessage({ id: message.id, rows: [], affectedRows: 0 });
      return;
    }
    if (openFailure) throw openFailure;
    if (!database || !statements) throw new Error('the database is not open');
    if (message.type === 'close') {
      if (!database.closed) await database.close();
      port?.postMessage({ id: message.id, rows: [], affectedRows: 0 });
      return;
    }
    if (message.type === 'exec') {
      const results = await statements.exec(message.sql ?? '');
      const last = results[results.length - 1];
      port?.postMessage({ id: message.id, rows: last?.rows ?? [], affectedRows: last?.affectedRows ?? 0 });
      return;
    }
    const result = await statements.query(message.sql ?? '', message.params ?? []);
    port?.postMessage({ id: message.id, rows: result.rows, affectedRows: result.affectedRows ?? 0 });
  } catch (error) {
    if (message.type === 'open') openFailure = error;
    port?.postMessage({ id: message.id, error: describe(error) });
  }
}

/**
 * Messages run one at a time, in the order they came (the open first): the app sends a statement before the one
 * ahead of it has answered, and a transaction's `begin` must not overtake a statement sent before it.
 */
let running = Promise.resolve();
port.on('message', (/** @type {Parameters<typeof handle>[0]} */ message) => {
  running = running.then(() => handle(message));
});
