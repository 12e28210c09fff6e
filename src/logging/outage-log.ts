/**
 * The log of a task that repeats every second (the job worker's claims, the session owner's pass) while the database
 * is unreachable: one warning when it goes away and one line when it answers again, instead of an error with its
 * stack at every try, which would bury the one line that says what happened.
 */
import type { Logger } from 'pino';
import { isDatabaseUnreachable } from '../core/database-unreachable.ts';

/** Logs a repeating task's failures, an unreachable database once per outage. */
export class OutageLog {
  private away = false;

  constructor(
    private readonly logger: Logger,
    /** What the task is, as the lines name it ("the job worker"). */
    private readonly task: string,
  ) {}

  /** A try failed: logged at `level` with `message`, unless the database is away (said once). */
  failed(error: unknown, level: 'warn' | 'error', message: string): void {
    if (!isDatabaseUnreachable(error)) return this.logger[level]({ err: error }, message);
    if (this.away) return;
    this.away = true;
    this.logger.warn({ err: error }, `${this.task}: the database is unreachable; trying again every second until it is back`);
  }

  /** A try succeeded: said once after an outage. */
  succeeded(): void {
    if (!this.away) return;
    this.away = false;
    this.logger.info(`${this.task}: the database answers again`);
  }
}
