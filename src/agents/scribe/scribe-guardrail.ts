import type { OutputGuardrail } from '@openai/agents';
import type { AgentContext } from '../../core/agent-context.ts';
import { CUT_OFF_NOTE } from '../models/output-fixes.ts';

/** The name of the Scribe's output guardrail (shown in traces). */
export const SCRIBE_GUARDRAIL_NAME = 'scribe_record_usable';

const REFUSAL = /^\s*(?:I['’]m sorry|I am sorry|sorry,|I can(?:not|['’]t)|I won['’]t|I['’]m (?:not able|unable)|I am (?:not able|unable)|As an AI\b)/i;

/** Why a Scribe answer cannot stand in for the record, or null when it can. */
export function unusableRecordReason(text: string): 'empty' | 'refusal' | 'cut_off' | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'empty';
  // A short apology is a refusal, not a record; a long record may well start with "I can't stress enough...".
  if (trimmed.length < 400 && REFUSAL.test(trimmed)) return 'refusal';
  if (trimmed.endsWith(CUT_OFF_NOTE.trim())) return 'cut_off';
  return null;
}

/** Speakers the record leaves out: each must be named, so no participant's points are silently dropped. */
export function missingSpeakers(markdown: string, speakers: readonly string[]): string[] {
  const text = markdown.toLowerCase();
  return speakers.filter((speaker) => speaker.trim() !== '' && !text.includes(speaker.toLowerCase()));
}

/**
 * Blocks a Scribe answer that would replace the record with nothing, a refusal, a record cut at the length
 * limit, or one that leaves out a participant who spoke: the pass then keeps the previous record and adds plain statistics instead (its fallback).
 */
export function scribeOutputGuardrail(): OutputGuardrail<'text', AgentContext> {
  return {
    name: SCRIBE_GUARDRAIL_NAME,
    execute: async ({ agentOutput, context }) => {
      const text = String(agentOutput ?? '');
      const missing = missingSpeakers(text, context.context?.documentFacts?.speakers ?? []);
      const reason = unusableRecordReason(text) ?? (missing.length > 0 ? 'speaker_missing' : null);
      return { tripwireTriggered: reason !== null, outputInfo: { reason, missing } };
    },
  };
}
