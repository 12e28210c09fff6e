/**
 * The database server could not be reached, or dropped the connection mid-statement: a Postgres restart, a managed
 * failover, the network. Unlike any other storage failure, the same work succeeds once the server is back, so the
 * app holds what people said and resumes its rounds then, instead of dropping them.
 */
import type { Clock } from './clock.ts';
import { BrainstormError } from './errors.ts';

const UNREACHABLE = Symbol.for('brainstorm.database_unreachable');

/** A statement or a connection that failed because the database server is unreachable (its cause is the driver's error). */
export class DatabaseUnreachableError extends BrainstormError<'database_unreachable'> {
  readonly [UNREACHABLE] = true;

  constructor(options: { cause: unknown }) {
    super('database_unreachable', 'The database server is unreachable.', options);
    this.name = 'DatabaseUnreachableError';
  }
}

/** True when `error`, or an error it was caused by, says the database server is unreachable. */
export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  // A few levels: a service wraps the store's error, a transport the service's.
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    if ((current as { [UNREACHABLE]?: unknown })[UNREACHABLE] === true) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Runs `work`, and again every few seconds while the database is unreachable, for `patienceMs` at most: for a write
 * that records what already happened outside (a message posted to Discord), which a retry of the whole job would do
 * a second time.
 */
export async function whenReachable<T>(work: () => Promise<T>, options: { clock: Clock; patienceMs?: number; signal?: AbortSignal }): Promise<T> {
  const giveUpAt = options.clock.now().getTime() + (options.patienceMs ?? 120_000);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnreachable(error) || options.signal?.aborted || options.clock.now().getTime() >= giveUpAt) throw error;
      await options.clock.sleep(Math.min(1000 * attempt, 5000), options.signal).catch(() => undefined);
    }
  }
}
