// @ts-check
/**
 * The copy of the migrated PGlite template into a fresh data directory. Plain JavaScript, so that the PGlite thread
 * (pglite-worker.mjs) runs it as well as the TypeScript side.
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
