import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';

/** The roles a preset may rotate through (the idea ledger's roles against sycophancy). */
export const PRESET_ROLE_NAMES = ['proposer', 'skeptic', 'pragmatist'] as const;

/** One preset as written in a presets file (and as the built-ins are written). */
export const presetEntrySchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a lowercase slug of letters, digits and dashes'),
  title: z.string().min(1).max(80),
  /** When it fits: the Planner reads it to pick a preset from the topic. */
  description: z.string().min(1).max(400),
  /** Participant ids or names; absent: every participant. */
  participants: z.array(z.string().min(1)).min(1).optional(),
  /** The roles that rotate, in seat order; empty: no roles; absent: all three. */
  roles: z.array(z.enum(PRESET_ROLE_NAMES)).optional(),
  /** How the discussion should go, in a sentence (the plan shows it; the Planner plans with it). */
  flow: z.string().min(1).max(400),
  /** The phases, in order: the plan's expected flow. */
  phases: z.array(z.string().min(1).max(200)).min(1).max(10),
  /** Limits the plan takes (still clamped into the admin bounds). */
  limits: z
    .object({
      maxMessages: z.number().int().positive(),
      maxTokens: z.number().int().positive(),
      maxCostUsd: z.number().positive(),
      timeoutMinutes: z.number().int().positive(),
      maxContextPercent: z.number().int().min(10).max(100),
    })
    .partial()
    .optional(),
});

/** A session preset: roster, roles, flow, phases and limits for one kind of task. */
export type SessionPreset = z.infer<typeof presetEntrySchema>;

/** The presets every installation has; a presets file may add more or replace one by name. */
export const BUILT_IN_PRESETS: readonly SessionPreset[] = [
  {
    name: 'product-ideas',
    title: 'Product ideas',
    description: 'Generate, challenge and shortlist product or feature ideas for users or a market.',
    roles: ['proposer', 'skeptic', 'pragmatist'],
    flow: 'Diverge widely first, then cluster and challenge, and end on a shortlist with a first experiment each.',
    phases: ['Diverge: many ideas, no judgement', 'Cluster similar ideas', 'Challenge the strongest', 'Shortlist with a first experiment each'],
    limits: { maxMessages: 60, timeoutMinutes: 45 },
  },
  {
    name: 'architecture-decision',
    title: 'Architecture decision',
    description: 'Choose between technical options (design, stack, migration) and record the decision and its consequences.',
    roles: ['proposer', 'skeptic', 'pragmatist'],
    flow: 'Agree the context and criteria first, weigh each option against them, and end on one decision written as an ADR.',
    phases: ['Context, constraints and decision criteria', 'Options', 'Trade-offs against the criteria', 'Decision and consequences (ADR)'],
    limits: { maxMessages: 40, timeoutMinutes: 40 },
  },
  {
    name: 'research-question',
    title: 'Research question',
    description: 'Investigate an open question: what is known, competing hypotheses, and the evidence that would settle it.',
    roles: ['proposer', 'skeptic'],
    flow: 'Frame the question precisely, separate what is known from what is assumed, and end on the evidence that would decide it.',
    phases: ['Frame the question', 'What is known and what is assumed', 'Competing hypotheses', 'Evidence needed and next steps'],
    limits: { maxMessages: 40, timeoutMinutes: 40 },
  },
  {
    name: 'retrospective',
    title: 'Retrospective',
    description: 'Look back on a project, sprint or incident: what went well, what did not, why, and what to change.',
    roles: ['pragmatist', 'skeptic'],
    flow: 'Blameless: facts first, then causes, and end on a few actions with owners.',
    phases: ['What went well', 'What went wrong', 'Root causes', 'Actions with owners'],
    limits: { maxMessages: 30, timeoutMinutes: 30 },
  },
];

function readPresetsFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError('PRESETS_FILE', `cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The built-in presets plus those of `PRESETS_FILE` (a JSON array; an entry with a built-in's name replaces it). */
export function loadPresets(path: string | undefined): SessionPreset[] {
  if (!path) return [...BUILT_IN_PRESETS];
  const parsed = z.array(presetEntrySchema).safeParse(readPresetsFile(path));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError('PRESETS_FILE', `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const presets = new Map(BUILT_IN_PRESETS.map((preset) => [preset.name, preset]));
  const seen = new Set<string>();
  for (const entry of parsed.data) {
    if (seen.has(entry.name)) throw new ConfigError('PRESETS_FILE', `preset "${entry.name}" appears twice`);
    seen.add(entry.name);
    presets.set(entry.name, entry);
  }
  return [...presets.values()];
}
