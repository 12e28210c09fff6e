/** Runs the Scribe and the TLDR outside the wrap-up chain (scheduled passes): each writes through `update_notion`. */
import { runForcedAct } from '../../agents/forced-act.ts';
import type { AgentContext, DocumentFacts } from '../../core/agent-context.ts';
import { createScribeAgent, createScribeRecordTool } from '../../agents/scribe/scribe-agent.ts';
import { createTldrAgent, tldrErrorHandlers } from '../../agents/tldr/tldr-agent.ts';
import { tldrInput } from '../../agents/tldr/tldr-text.ts';
import { repairCitations, type CitableMessage } from '../../agents/guardrails/citation-repair.ts';
import { checkSummary, summaryGuardrail } from '../../agents/guardrails/document-guardrails.ts';
import { createSummaryUpdateTool } from '../../tools/update-notion.ts';
import { tldrSchema, type TldrOutput } from '../../core/schemas.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { ToolPorts } from '../../core/ports.ts';
import type { DocumentationDependencies } from './documentation-types.ts';

/** Ports for a scheduled pass: only the writes given are allowed; anything else is refused. */
export function passContext(sessionId: string, writes: Partial<Pick<ToolPorts, 'writeDocument' | 'writeSummary'>> = {}): AgentContext {
  const refuse = async (): Promise<never> => {
    throw new BrainstormError('internal', 'This tool is not available in a scheduled documentation pass.');
  };
  const ports: ToolPorts = {
    sessionId,
    postToRoom: refuse,
    checkLimits: refuse,
    startSession: refuse,
    endSession: refuse,
    writeDocument: writes.writeDocument ?? refuse,
    writeSummary: writes.writeSummary ?? refuse,
    readDocument: refuse,
    recallSessions: refuse,
  };
  return { ports, sessionId };
}

/** What a pass's agent produced, and whether its tool already stored it (else the pass stores it). */
export interface PassResult<T> {
  value: T;
  storedByTool: boolean;
}

/** How a pass stores what its agent wrote, and what the document is checked against. */
export interface PassWriting<T> {
  store?: (value: T) => Promise<void>;
  facts?: DocumentFacts;
  /** The messages a summary may cite, to repair the citations of a TLDR that would not cite them. */
  messages?: CitableMessage[];
}

/**
 * One Scribe pass: the Scribe must store the full updated record with `update_notion` (forced); a model that
 * ignores the forced call and answers in prose still has its record kept when the guardrails pass it.
 * Throws when the model fails.
 */
export async function runScribe(
  deps: Pick<DocumentationDependencies, 'models' | 'prompts'>,
  sessionId: string,
  title: string,
  input: string,
  signal: AbortSignal,
  writing: PassWriting<string> = {},
): Promise<PassResult<string>> {
  let stored: string | null = null;
  const writeDocument = async (kind: 'record' | 'tldr', markdown: string): Promise<void> => {
    if (kind !== 'record') throw new BrainstormError('internal', 'The Scribe writes the record only.');
    await writing.store?.(markdown);
    stored = markdown;
  };
  const context = { ...passContext(sessionId, { writeDocument }), ...(writing.facts ? { documentFacts: writing.facts } : {}) };
  const outcome = await runForcedAct({
    agent: createScribeAgent({ model: deps.models.role('scribe'), prompts: deps.prompts, title }),
    tool: createScribeRecordTool(),
    input,
    context,
    acted: () => stored,
    signal,
    trace: { name: 'Scribe pass', metadata: { sessionId, kind: 'scribe' } },
  });
  if (stored !== null) return { value: stored, storedByTool: true };
  if (outcome.error) throw outcome.error;
  const output = typeof outcome.finalOutput === 'string' ? outcome.finalOutput.trim() : '';
  if (!output) throw new BrainstormError('model_unavailable', 'The Scribe returned an empty record.');
  return { value: output, storedByTool: false };
}

/**
 * One TLDR pass over a record (and the TLDR people edited in Notion, when they did): the TLDR must store its summary
 * with `update_notion` (forced); a prose or JSON answer instead is parsed and kept when it passes the same checks.
 * Throws when the model fails.
 */
export async function runTldr(
  deps: Pick<DocumentationDependencies, 'models' | 'prompts'>,
  sessionId: string,
  record: string,
  signal: AbortSignal,
  writing: PassWriting<TldrOutput> = {},
  editedByPeople: string | null = null,
): Promise<PassResult<TldrOutput>> {
  let stored: TldrOutput | null = null;
  const writeSummary = async (summary: TldrOutput): Promise<void> => {
    await writing.store?.(summary);
    stored = summary;
  };
  const context = { ...passContext(sessionId, { writeSummary }), ...(writing.facts ? { documentFacts: writing.facts } : {}) };
  const agent = createTldrAgent({ model: deps.models.role('tldr'), prompts: deps.prompts });
  const input = tldrInput(record, editedByPeople);
  const storedSummary = (): TldrOutput | null => stored;
  let uncited: TldrOutput | null = null;
  const outcome = await runForcedAct({
    agent,
    tool: createSummaryUpdateTool({ inputGuardrails: [summaryGuardrail({ onRejected: (candidate) => (uncited = candidate) })] }),
    input,
    context,
    acted: () => {
      const summary = storedSummary();
      return summary ? JSON.stringify(summary) : null;
    },
    signal,
    errorHandlers: tldrErrorHandlers(),
    trace: { name: 'TLDR pass', metadata: { sessionId, kind: 'tldr' } },
  });
  const summary = storedSummary();
  if (summary) return { value: summary, storedByTool: true };
  const repaired = repairedSummary(uncited, writing);
  if (repaired) return { value: repaired, storedByTool: false };
  if (outcome.error) throw outcome.error;
  const parsed = tldrSchema.safeParse(outcome.finalOutput);
  if (!parsed.success) throw new BrainstormError('model_unavailable', 'The TLDR returned no usable summary.');
  return { value: parsed.data, storedByTool: false };
}

/**
 * A TLDR that kept failing only its citations: its findings are kept, cited by the messages they match (the
 * guardrail then holds by construction). Null when there is nothing to repair or the repair falls short.
 */
function repairedSummary(candidate: TldrOutput | null, writing: PassWriting<TldrOutput>): TldrOutput | null {
  if (!candidate || !writing.messages || writing.messages.length === 0) return null;
  const repaired = repairCitations(candidate, writing.messages, writing.facts?.speakers ?? []);
  return checkSummary(repaired, writing.facts).triggered ? null : repaired;
}
