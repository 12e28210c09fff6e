import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATION_NAMES } from './migrate.ts';

const CACHE_DIRECTORY = fileURLToPath(new URL('../../node_modules/.cache/brainstorm/', import.meta.url));

function pgliteVersion(): string {
  try {
    const packageFile = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
    return (JSON.parse(readFileSync(packageFile, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Bumped when the way a template is built changes, so an older build in the cache is not used. */
const TEMPLATE_FORMAT = 2;

/**
 * Where the template of this PGlite version and these migrations lives (it changes when either does). The migrations
 * are named by the last one and a digest of all: listed whole, twenty-one of them passed the 255 characters a file
 * name may have.
 */
export function pgliteTemplatePath(cacheDirectory = CACHE_DIRECTORY): string {
  const digest = createHash('sha256').update(MIGRATION_NAMES.join('+')).digest('hex').slice(0, 16);
  const key = `f${TEMPLATE_FORMAT}-${pgliteVersion()}-${MIGRATION_NAMES.at(-1) ?? 'none'}-${digest}`.replace(/[^a-zA-Z0-9.+-]/g, '_');
  return join(cacheDirectory, `pglite-template-${key}`);
}

/**
 * A migrated, cleanly closed PGlite data directory: a fresh DATA_DIR starts as a copy of it (tens of
 * milliseconds) instead of running initdb (seconds) or restoring a dump (most of a second). Like Postgres's
 * template1; built once by `npm install`.
 */
export async function buildPgliteTemplate(migrate: (database: PGlite) => Promise<void>, cacheDirectory = CACHE_DIRECTORY): Promise<string> {
  const path = pgliteTemplatePath(cacheDirectory);
  const building = `${path}.tmp-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const database = new PGlite(building);
  await migrate(database);
  await dropTemplateDatabases(database);
  await database.close();
  rmSync(path, { recursive: true, force: true });
  renameSync(building, path);
  removeOtherTemplates(path, cacheDirectory);
  return path;
}

/** Templates of older PGlite versions, migrations or formats: never used again, ~25-40 MB each. */
function removeOtherTemplates(current: string, cacheDirectory: string): void {
  for (const name of readdirSync(cacheDirectory)) {
    const path = join(cacheDirectory, name);
    if (name.startsWith('pglite-template-') && !name.includes('.tmp-') && path !== current) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * initdb's template0 and template1 serve CREATE DATABASE only, which the bot never runs on PGlite: without them a
 * fresh DATA_DIR is 515 files instead of 1,117, and the copy at a first start takes ~0.3 s instead of ~0.85 s on a
 * slow disk (the cost is per file, not per byte); a test's in-memory clone takes ~370 ms instead of ~540.
 */
export async function dropTemplateDatabases(database: PGlite): Promise<void> {
  for (const name of ['template1', 'template0']) {
    await database.exec(`alter database ${name} is_template false`);
    await database.exec(`drop database ${name}`);
  }
}

/** What a data directory starts from: the template to copy into it, or a dump to load (older format), or nothing. */
export interface TemplateSeed {
  /** The template directory, for a fresh data directory (`copyTemplate` copies it, on the PGlite thread in the app). */
  seedFrom?: string;
  loadDataDir?: Blob;
}

/**
 * What a data directory that does not exist yet (or is empty) starts from; a used one starts from itself. Copies
 * nothing: the PGlite thread copies the template while V8 compiles PGlite's WebAssembly.
 */
export function templateSeedFor(directory: string, cacheDirectory = CACHE_DIRECTORY): TemplateSeed {
  const fresh = !existsSync(directory) || readdirSync(directory).length === 0;
  const path = pgliteTemplatePath(cacheDirectory);
  if (fresh && existsSync(join(path, 'PG_VERSION'))) return { seedFrom: path };
  mkdirSync(directory, { recursive: true });
  return fresh && existsSync(`${path}.tar.gz`) ? { loadDataDir: new Blob([readFileSync(`${path}.tar.gz`)]) } : {};
}
