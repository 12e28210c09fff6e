/**
 * Run by `npm install` (postinstall): builds the migrated PGlite template a fresh DATA_DIR starts from.
 * It never fails the install: without the template, start-up simply runs initdb.
 */
import { buildPgliteTemplate } from '../src/db/pglite-template.ts';
import { pgliteHandle } from '../src/db/create-database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

try {
  const path = await buildPgliteTemplate(async (database) => migrateToLatest(pgliteHandle(database).db));
  process.stdout.write(`brainstorm: embedded database template ready (${path})\n`);
} catch (error) {
  process.stdout.write(
    `brainstorm: no embedded database template (${error instanceof Error ? error.message : String(error)}); the first start will initialise PGlite instead\n`,
  );
}
process.exit(0);
