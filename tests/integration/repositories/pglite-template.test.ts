import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteHandle } from '../../../src/db/create-database.ts';
import { migrateToLatest, MIGRATION_NAMES } from '../../../src/db/migrate.ts';
import { buildPgliteTemplate, pgliteTemplatePath, templateSeedFor } from '../../../src/db/pglite-template.ts';
import { PgliteThread } from '../../../src/db/pglite-thread.ts';

const scratch = mkdtempSync(join(tmpdir(), 'brainstorm-template-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('PGlite template', () => {
  it('is a migrated data directory that a fresh DATA_DIR starts as a copy of, and never overwrites a used one', async () => {
    const cache = join(scratch, 'cache');
    // A template of an older PGlite, migration list or build format is removed when the current one is built.
    mkdirSync(join(cache, 'pglite-template-f1-0.0.1-0001-initial'), { recursive: true });
    const path = await buildPgliteTemplate(async (database) => migrateToLatest(pgliteHandle(database).db), cache);
    expect(path).toBe(pgliteTemplatePath(cache));
    // Named by the last migration and a digest of all: a file name holds at most 255 characters, with `.tmp-<pid>`.
    expect(path).toContain(MIGRATION_NAMES.at(-1));
    expect(basename(path).length + '.tmp-4194304'.length).toBeLessThanOrEqual(255);
    expect(existsSync(join(path, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(cache)).toEqual([readdirSync(cache).find((name) => path.endsWith(name))]);

    // The app's PGlite thread copies the template into the fresh directory before it opens it.
    const fresh = join(scratch, 'data', 'db');
    const seed = templateSeedFor(fresh, cache);
    expect(seed).toEqual({ seedFrom: path });
    expect(existsSync(fresh)).toBe(false);
    const database = new PgliteThread({ dataDir: fresh, ...seed });
    const tables = await database.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public'");
    expect(tables.rows.map((row) => row.name)).toEqual(expect.arrayContaining(['sessions', 'messages', 'jobs']));
    // Without initdb's template databases (CREATE DATABASE is never run here), a first start copies half the files.
    const databases = await database.query<{ name: string }>('select datname as name from pg_database');
    expect(databases.rows).toEqual([{ name: 'postgres' }]);
    await database.close();

    // Copied beside the target and renamed: nothing is left behind.
    expect(readdirSync(join(scratch, 'data'))).toEqual(['db']);

    const used = join(scratch, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'keep'), 'x');
    expect(templateSeedFor(used, cache)).toEqual({});
    expect(readdirSync(used)).toEqual(['keep']);
  }, 120_000);

  it('leaves a fresh directory empty for initdb when there is no template', () => {
    const fresh = join(scratch, 'no-template', 'db');
    expect(templateSeedFor(fresh, join(scratch, 'empty-cache'))).toEqual({});
    expect(readdirSync(fresh)).toEqual([]);
  });
});
