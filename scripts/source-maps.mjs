// @ts-check
/**
 * Source-mapped stack traces for Brainstorm's own code only. Node's `--enable-source-maps` (and
 * `process.setSourceMapsEnabled`) also parse the map of every dependency that ships one and keep it, sources
 * included, for the life of the process: ~11 MB of heap for maps nobody reads (`npm run bench -- memory-postgres`).
 * Our bundle lives outside node_modules (scripts/start.mjs), so its traces still point at src/*.ts.
 */
import module from 'node:module';
import process from 'node:process';

/** Enables source maps for files outside node_modules (all files on a Node without the option, before 22.14). */
export function enableOwnSourceMaps() {
  if (typeof module.setSourceMapsSupport === 'function') module.setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
  else process.setSourceMapsEnabled(true);
}
