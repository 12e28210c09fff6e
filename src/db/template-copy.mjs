// @ts-check
/**
 * The copy of the migrated PGlite template into a fresh data directory, made by the PGlite thread (pglite-worker.mjs)
 * while V8 compiles PGlite's WebAssembly. Plain JavaScript, as the worker is.
 */
import { cpSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import process from 'node:process';

/**
 * Copies `template` to `directory`: beside it first, then renamed, so a copy cut short never looks like a database.
 * @param {string} template
 * @param {string} directory
 */
export function copyTemplate(template, directory) {
  const copying = `${directory}.seeding-${process.pid}`;
  mkdirSync(dirname(directory), { recursive: true });
  cpSync(template, copying, { recursive: true });
  rmSync(directory, { recursive: true, force: true });
  renameSync(copying, directory);
}
