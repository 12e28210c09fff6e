/**
 * Migrating at start, waiting for a database server that does not accept connections yet: started together (a compose
 * file, a host's boot), the bot is often up before Postgres, and a start that failed at once would leave it down
 * unless something restarts it.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { isDatabaseUnreachable } from '../core/database-unreachable.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

/** How long a start waits for the database server by default. */
export const DATABASE_WAIT_MS = 60_000;

/** Brings the schema up to date, trying again every 2 s while the server is unreachable, for `patienceMs` at most. */
export async function migrateWhenReachable(db: Kysely<Database>, options: { clock: Clock; logger: Logger; patienceMs?: number }): Promise<void> {
  const { clock, logger } = options;
  const giveUpAt = clock.now().getTime() + (options.patienceMs ?? DATABASE_WAIT_MS);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await migrateToLatest(db);
    } catch (error) {
      if (!isDatabaseUnreachable(error) || clock.now().getTime() >= giveUpAt) throw error;
      // The connection string is not logged: it may carry a password.
      if (attempt === 1) logger.warn('the database server does not accept connections yet: waiting for it (up to a minute)');
      await clock.sleep(2000);
    }
  }
}
