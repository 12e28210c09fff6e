import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Where the template of this PGlite version and these migrations lives (it changes when either does). */
export function pgliteTemplatePath(): string {
  const key = `${pgliteVersion()}-${MIGRATION_NAMES.join('+')}`.replace(/[^a-zA-Z0-9.+-]/g, '_');
  return join(CACHE_DIRECTORY, `pglite-template-${key}.tar.gz`);
}

/**
 * A migrated, dumped PGlite data directory: a fresh DATA_DIR starts from it in about a second instead of
 * running initdb (several seconds). Like Postgres's template1; built once by `npm install`.
 */
export async function buildPgliteTemplate(migrate: (database: PGlite) => Promise<void>): Promise<string> {
  const path = pgliteTemplatePath();
  const database = new PGlite();
  await migrate(database);
  const dump = await database.dumpDataDir('gzip');
  await database.close();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  return path;
}

/** The template for a data directory that does not exist yet (or is empty), or null. */
export function templateFor(directory: string): Blob | null {
  const fresh = !existsSync(directory) || readdirSync(directory).length === 0;
  const path = pgliteTemplatePath();
  if (!fresh || !existsSync(path)) return null;
  return new Blob([readFileSync(path)]);
}
