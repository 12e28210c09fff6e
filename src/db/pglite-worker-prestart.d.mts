import type { Worker } from 'node:worker_threads';

/** Starts the PGlite worker at `url` before the app is loaded, for the app's PgliteThread to take (see the .mjs). */
export declare function prestartPgliteWorker(url: URL): void;

/** The worker started for `url`, once; undefined when none was, or it has already stopped. */
export declare function takePrestartedPgliteWorker(url: URL): Worker | undefined;
