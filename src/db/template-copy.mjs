// @ts-check
/**
 * The copy of the migrated PGlite template into a fresh data directory, made by the PGlite thread (pglite-worker.mjs)
 * while V8 compiles PGlite's WebAssembly. Plain JavaScript, as the worker is.
 */
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import process from 'node:process';

/**
 * Copies `template` to `directory`: beside it first, then renamed, so a copy cut short never looks like a database.
 * @param {string} template
 * @param {string} directory
 */
export function copyTemplate(template, directory) {
  const copying = `${directory}.seeding-${process.pid}`;
  mkdirSync(dirname(directory), { recursive: true });
  removeAbandonedCopies(directory);
  cpSync(template, copying, { recursive: true });
  rmSync(directory, { recursive: true, force: true });
  renameSync(copying, directory);
}

/**
 * Removes the copies beside `directory` that a process killed mid-copy left behind (its pid is gone): each is a whole
 * database's worth of files that nothing would ever read. A copy whose process still runs is left to it.
 * @param {string} directory
 * @param {(pid: number) => boolean} [isAlive]
 */
export function removeAbandonedCopies(directory, isAlive = processIsAlive) {
  const prefix = `${basename(directory)}.seeding-`;
  for (const entry of readdirSync(dirname(directory))) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(entry.slice(prefix.length));
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) rmSync(join(dirname(directory), entry), { recursive: true, force: true });
  }
}

/**
 * Whether a process of this machine runs with `pid` (signal 0 only asks).
 * @param {number} pid
 */
function processIsAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}
