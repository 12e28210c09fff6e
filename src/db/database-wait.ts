/**
 * Migrating at start, waiting for a database server that does not accept connections yet: started together (a compose
 * file, a host's boot), the bot is often up before Postgres, and a start that failed at once would leave it down
 * unless something restarts it.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { isDatabaseUnreachable, whenReachable } from '../core/database-unreachable.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

/** How long a start waits for the database server by default. */
export const DATABASE_WAIT_MS = 60_000;

/** Brings the schema up to date, trying again every few seconds while the server is unreachable, for `patienceMs` at most. */
export async function migrateWhenReachable(db: Kysely<Database>, options: { clock: Clock; logger: Logger; patienceMs?: number }): Promise<void> {
  let told = false;
  const migrate = () =>
    migrateToLatest(db).catch((error: unknown) => {
      // Said once; the connection string is not logged: it may carry a password.
      if (isDatabaseUnreachable(error) && !told) options.logger.warn('the database server does not accept connections yet: waiting for it (up to a minute)');
      told ||= isDatabaseUnreachable(error);
      throw error;
    });
  await whenReachable(migrate, { clock: options.clock, patienceMs: options.patienceMs ?? DATABASE_WAIT_MS });
}
