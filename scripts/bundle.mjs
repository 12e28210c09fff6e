// @ts-check
/**
 * The ahead-of-time bundle `npm start` runs (see start.mjs): `src/` and the dependencies Node is slowest to load,
 * built with esbuild (it ships with tsx) into one folder per fingerprint of the sources, the lockfile and this build,
 * so concurrent starts never overwrite a bundle another process is running from.
 *
 * The bundle lives under .cache/build (ignored by git and lint), not under node_modules: Node maps stack traces only
 * of files outside it when source maps are enabled for our code alone (see source-maps.mjs).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { asciiSource } from './ascii-source.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'src');
/** Where bundles are built: outside node_modules, so that enableOwnSourceMaps maps their stack traces. */
const BUILDS = join(ROOT, '.cache', 'build');
/** Bundles unused this long are removed (a running process has long loaded its lazy chunks by then). */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * The packages bundled with our code, with every package they import. Node loads an ESM package file by file: the
 * Agents SDK took 410-520 ms to import, Kysely 170, zod 70-100, half a second of every start before the database's
 * thread could even begin (Kysely and zod are needed to open it). Bundled, the whole app loads in ~350 ms instead of
 * ~1 s. The others stay with Node: PGlite finds its WebAssembly next to its module, pg and discord.js load optional
 * native add-ons, pino starts its transports from files, and the OpenTelemetry SDK and discord.js load only when used.
 */
export const BUNDLED_PACKAGES = Object.freeze(['@openai/agents', 'openai', 'zod', 'kysely', 'hono', '@hono/node-server', '@notionhq/client', 'dotenv']);

/** The package an import names: `@scope/name` or `name`, without the path inside it. @param {string} specifier */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * Whether the bundle takes in what `specifier` names: a bundled package imported from our code, or anything a bundled
 * package imports (from its own node_modules too); never Node's built-ins.
 * @param {string} specifier
 * @param {string} importer the importing file's path
 */
export function bundlesImport(specifier, importer) {
  if (specifier.startsWith('node:')) return false;
  if (importer.split(/[\\/]/).includes('node_modules')) return true;
  return BUNDLED_PACKAGES.includes(packageOf(specifier));
}

/** @type {import('esbuild').Plugin} */
const bundledPackagesOnly = {
  name: 'bundled-packages-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (arguments_) =>
      bundlesImport(arguments_.path, arguments_.importer) ? undefined : { path: arguments_.path, external: true },
    );
  },
};

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
 * A source map that maps our own code only, by line. Node keeps every mapping of a loaded map as an array of its own:
 * esbuild's 225,000 (most of them the bundled packages', one per token) held ~14 MB of a 74 MB live heap with 100
 * sessions. So the dependencies' code is left unmapped, as Node leaves it when they are not bundled (source-maps.mjs):
 * one unmapped segment where a run of it begins, which covers the run, so their frames show the bundle's own lines.
 * And our code keeps one segment where each source line begins on a generated line: stack traces name the right file
 * and line, with the column where that line's code begins. ~23,000 mappings are left. Sources are named by absolute
 * URL: relative ones would resolve against the bundle's real path, which is elsewhere when node_modules is a symlink.
 * @param {{ sources: string[], mappings: string, names?: string[] }} map
 * @param {string} directory the map's folder
 */
export function ownMappingsOnly(map, directory) {
  const sources = map.sources.map((source) => pathToFileURL(resolve(directory, source)).href);
  const own = sources.map((source) => !source.includes('/node_modules/'));
  let keptSoFar = 0;
  const newIndex = own.map((isOwn) => (isOwn ? keptSoFar++ : -1));
  let inDependencyRun = false;
  const lines = decode(map.mappings).map((segments) => {
    /** @type {typeof segments} */
    const result = [];
    /** @type {(typeof segments)[number] | null} */
    let previous = null;
    for (const segment of segments) {
      if (segment.length < 4 || !own[segment[1]]) {
        if (!inDependencyRun) result.push([segment[0]]);
        inDependencyRun = true;
        previous = null;
        continue;
      }
      inDependencyRun = false;
      if (previous && previous[1] === segment[1] && previous[2] === segment[2]) continue;
      result.push(/** @type {typeof segment} */ ([segment[0], newIndex[segment[1]], segment[2], segment[3]]));
      previous = segment;
    }
    return result;
  });
  return { ...map, sources: sources.filter((_, index) => own[index]), names: [], mappings: encode(lines) };
}

/**
 * A map's generated columns moved as `column` says (the chunk's text was escaped to ASCII after esbuild wrote it).
 * @param {string} mappings
 * @param {(line: number, column: number) => number} column
 */
export function shiftedMappings(mappings, column) {
  return encode(
    decode(mappings).map((segments, line) => segments.map((segment) => /** @type {typeof segment} */ ([column(line, segment[0]), ...segment.slice(1)]))),
  );
}

/**
 * Each chunk's text as ASCII (see ascii-source.mjs), and its source map mapping our own code only (see ownMappingsOnly).
 * @param {string} directory
 */
function rewriteChunks(directory) {
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.js'))) {
    const path = join(directory, name);
    const ascii = asciiSource(readFileSync(path, 'utf8'));
    writeFileSync(path, ascii.text);
    if (!existsSync(`${path}.map`)) continue;
    const map = ownMappingsOnly(JSON.parse(readFileSync(`${path}.map`, 'utf8')), directory);
    writeFileSync(`${path}.map`, JSON.stringify({ ...map, mappings: shiftedMappings(map.mappings, ascii.column) }));
  }
}

/**
 * Builds the bundle of `src/index.ts` into `target` (atomically: a concurrent build of the same target wins).
 * @param {string} target
 */
export async function buildBundle(target) {
  const esbuild = await import('esbuild');
  const temporary = `${target}.tmp-${process.pid}`;
  await esbuild.build({
    entryPoints: [join(SOURCE, 'index.ts')],
    outdir: temporary,
    bundle: true,
    // Lazy `import()`s (discord.js, the OpenTelemetry SDK) stay lazy: separate chunks.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // The CommonJS among the bundled packages (dotenv, ws...) require Node's built-ins.
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    sourcemap: 'linked',
    // Stack traces need the mappings only; the sources themselves would sit in the heap (~2 MB).
    sourcesContent: false,
    logLevel: 'error',
    plugins: [bundledPackagesOnly, sourceLocations],
  });
  rewriteChunks(temporary);
  try {
    renameSync(temporary, target);
  } catch {
    // Another start built the same fingerprint first: theirs is identical.
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** @param {string} directory @returns {string[]} */
function sourceFiles(directory) {
  return (
    readdirSync(directory, { withFileTypes: true, recursive: true })
      // The .mjs modules count too: the bundle takes in those the main thread imports (named-statements.mjs).
      .filter((entry) => entry.isFile() && /\.(ts|mjs|mts)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
  );
}

/**
 * The packages the bundle bakes in, as the lockfile pins them (package.json without one). Not npm's record in
 * node_modules: npm writes that after `postinstall`, which builds the bundle, so the first start would build it again.
 */
function installedPackages() {
  for (const path of [join(ROOT, 'package-lock.json'), join(ROOT, 'package.json')]) {
    if (existsSync(path)) return readFileSync(path);
  }
  return '';
}

/**
 * A hash of every source file, tsconfig.json, the lockfile, the checkout's path (baked into the bundle), this file
 * (the build's options) and the escaping of its output.
 */
function fingerprint() {
  const hash = createHash('sha256')
    .update(`${ROOT}\0`)
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(fileURLToPath(new URL('ascii-source.mjs', import.meta.url))))
    .update(readFileSync(join(ROOT, 'tsconfig.json')))
    .update(installedPackages());
  for (const file of sourceFiles(SOURCE))
    hash
      .update(`${relative(ROOT, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

function pruneStaleBuilds() {
  const now = Date.now();
  for (const name of readdirSync(BUILDS)) {
    const path = join(BUILDS, name);
    if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** The bundle's entry file, built if needed; null when it cannot be built. */
export async function bundledEntry() {
  try {
    const target = join(BUILDS, fingerprint());
    const entry = join(target, 'index.js');
    if (!existsSync(entry)) {
      mkdirSync(dirname(target), { recursive: true });
      await buildBundle(target);
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

// `node scripts/bundle.mjs` (npm's postinstall) builds the bundle ahead of the first start.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && !(await bundledEntry())) process.exitCode = 1;
