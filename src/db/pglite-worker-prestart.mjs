// @ts-check
/**
 * A PGlite thread started before the app is loaded. `npm start` spends ~0.5 s importing the app's bundle on the main
 * thread; a worker started first loads PGlite and compiles its WebAssembly on another core meanwhile, and the app's
 * PgliteThread takes it instead of starting its own (see pglite-thread.ts). Plain JavaScript: start.mjs imports it
 * before anything is bundled or transpiled, and the bundle keeps its own copy, so the hand-over goes through a global.
 */
import { Worker } from 'node:worker_threads';

const SLOT = Symbol.for('brainstorm.prestartedPgliteWorker');

/** @typedef {{ worker: Worker, url: string, exited: boolean }} Prestarted */

/** @returns {Record<symbol, Prestarted | undefined>} */
function slots() {
  return /** @type {Record<symbol, Prestarted | undefined>} */ (/** @type {unknown} */ (globalThis));
}

/**
 * Starts the worker at `url` (pglite-worker.mjs) unless one waits already. It does not keep the process alive, and a
 * failure to start is left for the taker to see: the taker then starts its own.
 * @param {URL} url
 */
export function prestartPgliteWorker(url) {
  if (slots()[SLOT]) return;
  const worker = new Worker(url, { execArgv: [] });
  worker.unref();
  /** @type {Prestarted} */
  const prestarted = { worker, url: url.href, exited: false };
  // Until taken, an error ends the worker quietly; the taker checks `exited`.
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    prestarted.exited = true;
  });
  slots()[SLOT] = prestarted;
}

/**
 * The worker started for `url`, once (undefined when none was, or it has already stopped).
 * @param {URL} url
 * @returns {Worker | undefined}
 */
export function takePrestartedPgliteWorker(url) {
  const prestarted = slots()[SLOT];
  if (!prestarted || prestarted.url !== url.href) return undefined;
  delete slots()[SLOT];
  if (!prestarted.exited) return prestarted.worker;
  void prestarted.worker.terminate();
  return undefined;
}
