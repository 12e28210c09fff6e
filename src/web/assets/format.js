// Number, money, time and duration formats shared by the pages.

/** 12345 -> "12,345". */
export function formatCount(value) {
  return Number(value ?? 0).toLocaleString('en-US');
}

/** Dollars with enough digits for a fraction of a cent. */
export function formatCost(value) {
  const amount = Number(value ?? 0);
  return `$${amount < 0.01 && amount > 0 ? amount.toFixed(5) : amount.toFixed(amount < 1 ? 4 : 2)}`;
}

const COST_SOURCE_LABELS = { provider: 'provider', config: 'configured price', price_table: 'estimated from price table' };

/**
 * A cost with where it came from: "$0.0123 (provider)", "$0.41 (estimated from price table)", or "cost unknown for
 * model X" when nothing priced it (counted as $0, never shown as a price). No source (older rows): the amount alone.
 */
export function formatCostWithSource(value, source, model) {
  if (source === 'unknown') return Number(value ?? 0) > 0 ? `${formatCost(value)} (partly unknown)` : `cost unknown${model ? ` for model ${model}` : ''}`;
  const label = COST_SOURCE_LABELS[source];
  return label ? `${formatCost(value)} (${label})` : formatCost(value);
}

/** Milliseconds as "850 ms", "2.4 s", "3 min 5 s". */
export function formatDuration(milliseconds) {
  if (milliseconds === null || milliseconds === undefined) return 'running';
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

/** An ISO time as local date and time. */
export function formatTime(iso) {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** An ISO time as a clock time. */
export function formatClock(iso) {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Tokens in/out as "1,200 in · 340 out". */
export function formatTokens(input, output) {
  return `${formatCount(input)} in · ${formatCount(output)} out`;
}

/** "1 message", "3 messages": a count with its noun. */
export function plural(count, noun) {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
