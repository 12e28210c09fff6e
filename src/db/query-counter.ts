import type { LogEvent } from 'kysely';

/**
 * Counts the statements a database handle sends (each one a round trip, `begin` and `commit` included), by SQL
 * text, so the bench can print how many a person's message or a model's turn costs.
 */
export class QueryCounter {
  private count = 0;
  private readonly byStatement = new Map<string, number>();

  /** Kysely's `log` hook: called once per executed statement. */
  readonly record = (event: LogEvent): void => {
    this.count += 1;
    const text = event.query.sql;
    this.byStatement.set(text, (this.byStatement.get(text) ?? 0) + 1);
  };

  /** Statements sent since the handle opened. */
  total(): number {
    return this.count;
  }

  /** The most frequent statements, most frequent first. */
  top(limit: number): { sql: string; count: number }[] {
    return [...this.byStatement.entries()]
      .map(([sql, count]) => ({ sql, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, limit);
  }

  /** Forgets every count (the bench resets between its warm-up and its measured phase). */
  reset(): void {
    this.count = 0;
    this.byStatement.clear();
  }
}
