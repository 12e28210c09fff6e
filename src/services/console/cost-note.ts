/** How the console says where a cost came from: "provider", "estimated from price table", "unknown for model X". */
import { COST_SOURCES, type CostSource } from '../../core/cost.ts';
import type { CostSourceTotals } from '../../repositories/traces-repository.ts';

/** Where a session's cost came from, for the usage panel. */
export interface CostNote {
  /** E.g. "provider", "provider + estimated from price table; unknown for model llama3.1". */
  text: string;
  /** The sources that made up the cost, most certain first. */
  sources: CostSource[];
  /** Models whose calls had no cost and no price: their cost is counted as 0. */
  unknownModels: string[];
}

const LABELS: Record<CostSource, string> = {
  provider: 'provider',
  config: 'configured price',
  price_table: 'estimated from price table',
  unknown: 'unknown',
};

/** The label of one cost source, naming the model when its cost is unknown. */
export function costSourceLabel(source: CostSource, model?: string | null): string {
  return source === 'unknown' && model ? `unknown for model ${model}` : LABELS[source];
}

/** Sums a session's generations by source into one note; null when no generation recorded a source. */
export function costNote(rows: readonly CostSourceTotals[]): CostNote | null {
  const present = new Set(rows.flatMap((row) => (row.costSource ? [row.costSource] : [])));
  if (present.size === 0) return null;
  const sources = COST_SOURCES.filter((source) => present.has(source));
  const unknownModels = [...new Set(rows.filter((row) => row.costSource === 'unknown').map((row) => row.model ?? '(unnamed)'))].sort();
  const known = sources.filter((source) => source !== 'unknown').map((source) => LABELS[source]);
  const unknown = unknownModels.length > 0 ? `unknown for model ${unknownModels.join(', ')}` : null;
  return { text: [known.join(' + '), unknown].filter(Boolean).join('; '), sources, unknownModels };
}
