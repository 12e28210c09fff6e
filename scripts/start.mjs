// @ts-check
/**
 * `npm start`: runs Brainstorm from an ahead-of-time bundle of `src/` on plain Node (no TypeScript loader
 * hooks at run time: about a second less to start), rebuilt whenever a source file or an installed package
 * changed (see bundle.mjs). Falls back to tsx when the bundle cannot be built. Plain JavaScript so that it
 * needs no loader itself.
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import os from 'node:os';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { parseEnv } from 'node:util';
import { bundledEntry } from './bundle.mjs';
import { enableOwnSourceMaps } from './source-maps.mjs';
import { inSmallHostMode, mallocSettingsToAdd, smallHostFlagsToAdd } from './runtime-flags.mjs';
import { prestartPgliteWorker } from '../src/db/pglite-worker-prestart.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'src');

/** The host's memory in bytes: its RAM, or its container's limit (cgroup) when that is lower. */
function hostMemoryBytes() {
  const limit = process.constrainedMemory();
  return limit > 0 && limit < os.totalmem() ? limit : os.totalmem();
}

/** A setting from the environment, else from `.env` (which the app itself loads later, too late for V8 and glibc). */
function startSetting(/** @type {string} */ name) {
  if (process.env[name] !== undefined) return process.env[name];
  try {
    return parseEnv(readFileSync(join(process.cwd(), '.env'), 'utf8'))[name];
  } catch {
    return undefined;
  }
}

/** True when this Node runs on glibc (whose malloc reads MALLOC_* settings only as a process starts). */
function onGlibc() {
  if (process.platform !== 'linux') return false;
  process.report.excludeNetwork = true;
  const header = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report.getReport()).header;
  return Boolean(header?.glibcVersionRuntime);
}

/** Whether the app will run on embedded PGlite (no DATABASE_URL): the malloc settings and the early thread are for it. */
const embeddedDatabase = !startSetting('DATABASE_URL')?.trim();

/**
 * V8 takes its flags only at start (not from NODE_OPTIONS, and setting them later has no effect on WebAssembly), and
 * glibc reads its malloc settings only then too, so this process replaces itself with one that has them when they
 * are due: same pid, same stdio, nothing started yet. The small-host mode says so; the malloc settings are silent.
 */
function restartWithRuntimeSettingsWhenDue() {
  if (process.platform === 'win32' || typeof process.execve !== 'function') return;
  const memoryBytes = hostMemoryBytes();
  const setting = startSetting('SMALL_HOST');
  const flags = smallHostFlagsToAdd({ setting, memoryBytes, execArgv: process.execArgv });
  const smallHost = inSmallHostMode(process.execArgv, flags);
  // Only PGlite's runs set malloc, so only they pay for asking whether this is glibc (a process report, ~2 ms).
  const malloc = mallocSettingsToAdd({ env: process.env, glibc: embeddedDatabase && onGlibc(), embeddedDatabase, smallHost });
  if (flags.length === 0 && Object.keys(malloc).length === 0) return;
  if (flags.length > 0) {
    process.stderr.write(
      `brainstorm: small-host mode (${Math.round(memoryBytes / 2 ** 20)} MB of memory, SMALL_HOST=${setting ?? 'auto'}): ${flags.join(' ')}\n`,
    );
  }
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], { ...process.env, ...malloc });
}

restartWithRuntimeSettingsWhenDue();
// The embedded database's thread loads PGlite while this one loads the app (~0.5 s each, on two cores).
if (embeddedDatabase) prestartPgliteWorker(new URL('../src/db/pglite-worker.mjs', import.meta.url));
// V8 keeps the compiled code of every module on disk: later starts skip most parsing and compiling.
module.enableCompileCache?.(join(ROOT, 'node_modules', '.cache', 'brainstorm', 'v8'));
const entry = await bundledEntry();
if (entry) {
  // Stack traces in logs point at src/*.ts, as they do under tsx (not the dependencies': see source-maps.mjs).
  enableOwnSourceMaps();
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(SOURCE, 'index.ts')).href);
}
