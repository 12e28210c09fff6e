import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as initial from './migrations/0001-initial.ts';
import * as notionObjects from './migrations/0002-notion-objects.ts';
import * as workerInstances from './migrations/0003-worker-instances.ts';
import * as ideaLedger from './migrations/0010-idea-ledger.ts';
import * as sessionClock from './migrations/0011-session-clock.ts';
import * as messageNumbers from './migrations/0012-message-numbers.ts';
import * as sessionLeases from './migrations/0013-session-leases.ts';
import * as inboundClaims from './migrations/0016-inbound-claims.ts';
import * as costSources from './migrations/0017-cost-sources.ts';
import * as critiqueRounds from './migrations/0019-critique-rounds.ts';
import * as ledgerPasses from './migrations/0020-ledger-passes.ts';
import * as tracesStarted from './migrations/0021-traces-started.ts';
import * as deadProcessLeftovers from './migrations/0022-dead-process-leftovers.ts';
import * as documentVersionMetadata from './migrations/0023-document-version-metadata.ts';
import * as localDeliveries from './migrations/0024-local-deliveries.ts';
import * as messageChanges from './migrations/0025-message-changes.ts';
import * as sessionRepeats from './migrations/0026-session-repeats.ts';
import * as inboundClaimants from './migrations/0027-inbound-claimants.ts';
import * as claimSettlements from './migrations/0028-claim-settlements.ts';
import * as runStateAges from './migrations/0029-run-state-ages.ts';
import type { Database } from './schema.ts';

/** Every migration, in order. A new one is added here and in `migrations/`. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-notion-objects': notionObjects,
  '0003-worker-instances': workerInstances,
  '0010-idea-ledger': ideaLedger,
  '0011-session-clock': sessionClock,
  '0012-message-numbers': messageNumbers,
  '0013-session-leases': sessionLeases,
  '0016-inbound-claims': inboundClaims,
  '0017-cost-sources': costSources,
  '0019-critique-rounds': critiqueRounds,
  '0020-ledger-passes': ledgerPasses,
  '0021-traces-started': tracesStarted,
  '0022-dead-process-leftovers': deadProcessLeftovers,
  '0023-document-version-metadata': documentVersionMetadata,
  '0024-local-deliveries': localDeliveries,
  '0025-message-changes': messageChanges,
  '0026-session-repeats': sessionRepeats,
  '0027-inbound-claimants': inboundClaimants,
  '0028-claim-settlements': claimSettlements,
  '0029-run-state-ages': runStateAges,
};

/** The names of every migration, in order (the PGlite template is keyed on them). */
export const MIGRATION_NAMES = Object.keys(migrations);

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * True when every migration is recorded already, as after a start from the migrated template: one statement instead of
 * the Migrator's dozen (its catalog lookups, lock table and lock row), each a first run through PGlite's cold code at
 * start. Kysely records migrations in the transaction that applies them, so a complete list means a migrated schema.
 */
async function alreadyMigrated(db: Kysely<Database>): Promise<boolean> {
  try {
    const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    const names = recorded.rows.map((row) => row.name);
    return names.length === MIGRATION_NAMES.length && names.every((name, index) => name === MIGRATION_NAMES[index]);
  } catch {
    // No migration table yet (a new database): the Migrator creates it.
    return false;
  }
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  if (await alreadyMigrated(db)) return;
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
}
