import type { AgentOutputType, OutputGuardrail } from '@openai/agents';
import type { AgentContext, DocumentFacts } from '../../core/agent-context.ts';
import type { TldrOutput } from '../../core/schemas.ts';
import { missingSpeakers, unusableRecordReason } from '../scribe/scribe-guardrail.ts';
import { screenDocumentText, tracedToolGuardrail, type BrainstormToolGuardrail, type ToolCheck } from './tool-guardrails.ts';

/** Guardrail names of the documents (also the guardrail span names in the traces). */
export const DOCUMENT_GUARDRAIL_NAMES = {
  recordComplete: 'record_covers_every_voice',
  summaryCited: 'summary_findings_cited',
} as const;

const MESSAGE_REFERENCE = /#(\d+)\b/g;

/** Why a record cannot be stored (empty, refusal, cut off, a voice missing), or null when it can. */
export function checkRecord(markdown: string, facts: DocumentFacts | undefined): ToolCheck {
  const unusable = unusableRecordReason(markdown);
  if (unusable) return { triggered: true, reason: unusable, message: `The record is unusable (${unusable}); write the complete record.` };
  const missing = missingSpeakers(markdown, facts?.speakers ?? []);
  if (missing.length > 0) {
    return {
      triggered: true,
      reason: 'speaker_missing',
      details: { missing },
      message: `The record leaves out the points of ${missing.join(', ')}; keep every participant's reasoning, by name, and store the whole record again.`,
    };
  }
  return { triggered: false };
}

/** The message numbers a finding cites (`#12`). */
export function citedNumbers(sources: readonly string[]): number[] {
  return sources.flatMap((source) => [...source.matchAll(MESSAGE_REFERENCE)].map((match) => Number(match[1])));
}

/** Why a summary cannot be stored (not 3-5 findings, a finding citing no message or one that does not exist), or null. */
export function checkSummary(summary: TldrOutput, facts: DocumentFacts | undefined): ToolCheck {
  const count = summary.keyFindings.length;
  if (summary.summary.trim() === '') return { triggered: true, reason: 'empty', message: 'The summary is empty; write the executive summary.' };
  if (count < 3 || count > 5) return { triggered: true, reason: 'finding_count', details: { count }, message: `Give 3 to 5 key findings (you gave ${count}).` };
  const known = new Set(facts?.messageNumbers ?? []);
  if (known.size === 0) return { triggered: false };
  const uncited = summary.keyFindings.flatMap((finding, index) => {
    const cited = citedNumbers(finding.sources);
    return cited.length === 0 || cited.some((number) => !known.has(number)) ? [index + 1] : [];
  });
  if (uncited.length === 0) return { triggered: false };
  return {
    triggered: true,
    reason: 'finding_uncited',
    details: { findings: uncited },
    message: `Findings ${uncited.join(', ')} must each cite the messages they rest on as #id, and only ids that appear in the record.`,
  };
}

function parsedSummary(args: Record<string, unknown>): TldrOutput | null {
  const findings = args.keyFindings;
  if (typeof args.summary !== 'string' || !Array.isArray(findings)) return null;
  const keyFindings = findings.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { finding, sources } = entry as { finding?: unknown; sources?: unknown };
    if (typeof finding !== 'string') return [];
    return [{ finding, sources: Array.isArray(sources) ? sources.filter((source): source is string => typeof source === 'string') : [] }];
  });
  return { summary: args.summary, keyFindings };
}

/** Tool input guardrail on the Scribe's `update_notion`: a usable record that names every voice of the session. */
export function recordGuardrail(): BrainstormToolGuardrail {
  return tracedToolGuardrail(DOCUMENT_GUARDRAIL_NAMES.recordComplete, (args, context) =>
    checkRecord(typeof args.markdown === 'string' ? args.markdown : '', context?.documentFacts),
  );
}

function summaryText(summary: TldrOutput): string {
  return [summary.summary, ...summary.keyFindings.flatMap((finding) => [finding.finding, ...finding.sources])].join('\n');
}

/**
 * Tool input guardrail on the TLDR's `update_notion`: 3-5 findings, each citing messages that exist.
 * `onRejected` sees a summary rejected only for its citations (the pass may repair them from the messages).
 */
export function summaryGuardrail(options: { onRejected?: (summary: TldrOutput) => void } = {}): BrainstormToolGuardrail {
  return tracedToolGuardrail(DOCUMENT_GUARDRAIL_NAMES.summaryCited, (args, context) => {
    const summary = parsedSummary(args);
    if (!summary) return { triggered: true, reason: 'invalid_arguments', message: 'Give a summary and findings.' };
    const screened = screenDocumentText(summaryText(summary), []);
    if (screened.triggered) return screened;
    const decision = checkSummary(summary, context?.documentFacts);
    if (decision.reason === 'finding_uncited') options.onRejected?.(summary);
    return decision;
  });
}

/** Output guardrail of the TLDR: the same checks when it answers with the summary instead of writing it. */
export function summaryOutputGuardrail<Output extends AgentOutputType>(): OutputGuardrail<Output, AgentContext> {
  return {
    name: DOCUMENT_GUARDRAIL_NAMES.summaryCited,
    execute: async ({ agentOutput, context }) => {
      const raw: unknown = agentOutput;
      const output: unknown = typeof raw === 'string' ? safeJson(raw) : raw;
      const summary = typeof output === 'object' && output !== null ? parsedSummary(output as Record<string, unknown>) : null;
      const decision = summary ? checkSummary(summary, context.context?.documentFacts) : { triggered: true, reason: 'invalid_output' };
      return { tripwireTriggered: decision.triggered, outputInfo: { reason: decision.reason ?? null } };
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
