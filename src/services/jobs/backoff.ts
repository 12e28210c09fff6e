/** Exponential backoff: 1 s, 2 s, 4 s, ... capped at `maxMs`. `attempt` counts from 1. */
export function backoffDelayMs(attempt: number, options: { baseMs?: number; maxMs?: number } = {}): number {
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 30_000;
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}
