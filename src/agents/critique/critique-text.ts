/** Lenient reading of a reviewer's answer: JSON in fences or prose, other field shapes, or plain lines. */
import { extractJson } from '../models/output-fixes.ts';

/** A critique read from text; labels are checked later against the round's proposals. */
export interface LenientCritique {
  ranking: string[];
  weakestAssumptions: { proposal: string; assumption: string }[];
  reason: string;
}

const RANKING_KEYS = ['ranking', 'rank', 'order', 'ranked'];
const ASSUMPTION_KEYS = ['weakestAssumptions', 'weakest_assumptions', 'weakestAssumption', 'weakest_assumption', 'assumptions'];
const REASON_KEYS = ['reason', 'why', 'rationale'];

function field(record: Record<string, unknown>, keys: readonly string[]): unknown {
  const key = Object.keys(record).find((candidate) => keys.some((wanted) => wanted.toLowerCase() === candidate.toLowerCase()));
  return key === undefined ? undefined : record[key];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "B > A > C", "B, A, C", ["B", "A"], [{"proposal": "B"}] → ["B", "A", "C"]. */
function rankingOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s*(?:>|,|;|\n|→|->)\s*/).filter((entry) => entry.trim() !== '');
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    if (isRecord(entry)) {
      const label = field(entry, ['proposal', 'label', 'id']);
      return typeof label === 'string' ? [label] : [];
    }
    return [];
  });
}

/** [{proposal, assumption}], {"A": "…"}, or one string (the first choice's). */
function assumptionsOf(value: unknown, firstChoice: string | undefined): { proposal: string; assumption: string }[] {
  if (typeof value === 'string') return firstChoice && value.trim() ? [{ proposal: firstChoice, assumption: value.trim() }] : [];
  if (Array.isArray(value)) {
    return value.flatMap((entry) => {
      if (!isRecord(entry)) return [];
      const proposal = field(entry, ['proposal', 'label', 'id']);
      const assumption = field(entry, ['assumption', 'weakestAssumption', 'text']);
      return typeof proposal === 'string' && typeof assumption === 'string' ? [{ proposal, assumption }] : [];
    });
  }
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([proposal, assumption]) => (typeof assumption === 'string' ? [{ proposal, assumption }] : []));
  }
  return [];
}

function fromObject(value: unknown): LenientCritique | null {
  if (!isRecord(value)) return null;
  const ranking = rankingOf(field(value, RANKING_KEYS));
  if (ranking.length === 0) return null;
  const reason = field(value, REASON_KEYS);
  return {
    ranking,
    weakestAssumptions: assumptionsOf(field(value, ASSUMPTION_KEYS), ranking[0]),
    reason: typeof reason === 'string' ? reason : '',
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(extractJson(text));
  } catch {
    return null;
  }
}

/** Plain lines: "Ranking: B > A > C", "Weakest assumption: …", "Reason: …". */
function fromLines(text: string): LenientCritique | null {
  // Spaces before the name kept to its line, those after the colon taken whole: each line start read a blank run to its end.
  const line = (name: string) =>
    new RegExp(`^[^\\S\\n\\r\\u2028\\u2029]*[*_]*${name}[*_]*\\s*[:\\-–](?=(\\s*))\\1[*_]*\\s*(.+)$`, 'im').exec(text)?.[2]?.trim() ?? '';
  const ranking = rankingOf(line('ranking'));
  if (ranking.length === 0) return null;
  return { ranking, weakestAssumptions: assumptionsOf(line('weakest assumption'), ranking[0]), reason: line('reason') };
}

/** A critique from a model's text answer, or null when nothing like a ranking is in it. */
export function parseCritiqueText(text: string): LenientCritique | null {
  if (!text.trim()) return null;
  return fromObject(parseJson(text)) ?? fromLines(text);
}
