// @ts-check
/**
 * `npm start`: runs Brainstorm from an ahead-of-time bundle of `src/` on plain Node (no TypeScript loader
 * hooks at run time: about a second less to start), rebuilt with esbuild (it ships with tsx) whenever a
 * source file changed. Falls back to tsx when the bundle cannot be built. Plain JavaScript so that it
 * needs no loader itself.
 *
 * The bundle lives under .cache/build (ignored by git and lint), one folder per source fingerprint, so
 * concurrent starts never overwrite a bundle another process is running from. Not under node_modules: Node
 * maps stack traces only of files outside it when source maps are enabled for our code alone (see below).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import os from 'node:os';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { parseEnv } from 'node:util';
import { enableOwnSourceMaps } from './source-maps.mjs';
import { mallocSettingsToAdd, smallHostFlagsToAdd } from './runtime-flags.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'src');
/** Where bundles are built: outside node_modules, so that enableOwnSourceMaps maps their stack traces. */
const BUILDS = join(ROOT, '.cache', 'build');
/** Bump when the build options below change. */
const BUILD_VERSION = '3';
/** Bundles unused this long are removed (a running process has long loaded its lazy chunks by then). */
const STALE_MS = 24 * 60 * 60 * 1000;

/** @param {string} directory @returns {string[]} */
function sourceFiles(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A hash of every source file, tsconfig.json, the checkout's path (baked into the bundle) and the build options. */
function fingerprint() {
  const hash = createHash('sha256')
    .update(`${BUILD_VERSION}\0${ROOT}\0`)
    .update(readFileSync(join(ROOT, 'tsconfig.json')));
  for (const file of sourceFiles(SOURCE))
    hash
      .update(`${relative(ROOT, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Keeps `import.meta.url` pointing at the original source file, so paths such as `../../prompts/` resolve
 * exactly as they do under tsx.
 * @type {import('esbuild').Plugin}
 */
const sourceLocations = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (arguments_) => {
      const text = readFileSync(arguments_.path, 'utf8');
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(arguments_.path).href)), loader: 'ts' };
    });
  },
};

/**
 * Source maps name their sources by absolute URL: relative ones would resolve against the bundle's real
 * path, which is elsewhere when node_modules is a symlink.
 * @param {string} directory
 */
function absoluteSources(directory) {
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.map'))) {
    const path = join(directory, name);
    const map = JSON.parse(readFileSync(path, 'utf8'));
    map.sources = map.sources.map((/** @type {string} */ source) => pathToFileURL(resolve(directory, source)).href);
    writeFileSync(path, JSON.stringify(map));
  }
}

/** @param {string} target */
async function build(target) {
  const esbuild = await import('esbuild');
  const temporary = `${target}.tmp-${process.pid}`;
  await esbuild.build({
    entryPoints: [join(SOURCE, 'index.ts')],
    outdir: temporary,
    bundle: true,
    // Lazy `import()`s (discord.js, the OpenTelemetry SDK) stay lazy: separate chunks, packages left to Node.
    splitting: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'linked',
    // Stack traces need the mappings only; the sources themselves would sit in the heap (~2 MB).
    sourcesContent: false,
    logLevel: 'error',
    plugins: [sourceLocations],
  });
  absoluteSources(temporary);
  try {
    renameSync(temporary, target);
  } catch {
    // Another start built the same fingerprint first: theirs is identical.
    rmSync(temporary, { recursive: true, force: true });
  }
}

function pruneStaleBuilds() {
  const now = Date.now();
  for (const name of readdirSync(BUILDS)) {
    const path = join(BUILDS, name);
    if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** The bundle's entry file, built if needed; null when it cannot be built. */
async function bundledEntry() {
  try {
    const target = join(BUILDS, fingerprint());
    const entry = join(target, 'index.js');
    if (!existsSync(entry)) {
      mkdirSync(dirname(target), { recursive: true });
      await build(target);
      pruneStaleBuilds();
    }
    const now = new Date();
    utimesSync(target, now, now);
    return entry;
  } catch (error) {
    process.stderr.write(
      `brainstorm: running the TypeScript sources with tsx (no bundle: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})\n`,
    );
    return null;
  }
}

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
  const embeddedDatabase = !startSetting('DATABASE_URL')?.trim();
  const malloc = mallocSettingsToAdd({ env: process.env, glibc: onGlibc(), embeddedDatabase });
  if (flags.length === 0 && Object.keys(malloc).length === 0) return;
  if (flags.length > 0) {
    process.stderr.write(
      `brainstorm: small-host mode (${Math.round(memoryBytes / 2 ** 20)} MB of memory, SMALL_HOST=${setting ?? 'auto'}): ${flags.join(' ')}\n`,
    );
  }
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], { ...process.env, ...malloc });
}

restartWithRuntimeSettingsWhenDue();
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
