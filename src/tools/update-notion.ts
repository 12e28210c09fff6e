import { tool, type RunContext, type ToolInputGuardrailDefinition } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';
import { tldrSchema } from '../core/schemas.ts';

/** Guardrails a document tool runs before it writes (content checks live with the agents). */
type DocumentGuardrails = { inputGuardrails?: ToolInputGuardrailDefinition<AgentContext>[] };

function portsOf(runContext: RunContext<AgentContext> | undefined) {
  const ports = runContext?.context.ports;
  if (!ports) throw new Error('update_notion needs the session ports in its run context');
  return ports;
}

/** `update_notion`: stores a session document (the Scribe's record or the TLDR). Thin: validates, delegates. */
export function createUpdateNotionTool(options: DocumentGuardrails = {}) {
  return tool({
    name: 'update_notion',
    description: 'Store the whole markdown of a session document in Notion (replaces the previous version).',
    parameters: z.object({
      document: z.enum(['record', 'tldr']).describe('"record" for the detailed record, "tldr" for the summary'),
      markdown: z.string().min(1).max(400_000).describe('The complete document in markdown'),
    }),
    inputGuardrails: options.inputGuardrails ?? [],
    async execute({ document, markdown }, runContext?: RunContext<AgentContext>) {
      await portsOf(runContext).writeDocument(document, markdown);
      return `stored the ${document}`;
    },
  });
}

/** The Scribe's `update_notion`: the whole record, nothing to choose (a model cannot write the record as the TLDR). */
export function createRecordUpdateTool(options: DocumentGuardrails = {}) {
  return tool({
    name: 'update_notion',
    description: 'Store the complete, updated detailed record of the session in Notion (replaces the previous version).',
    parameters: z.object({ markdown: z.string().min(1).max(400_000).describe('The complete record in markdown') }),
    inputGuardrails: options.inputGuardrails ?? [],
    async execute({ markdown }, runContext?: RunContext<AgentContext>) {
      await portsOf(runContext).writeDocument('record', markdown);
      return 'stored the record';
    },
  });
}

/** The summary as the TLDR writes it: 3 to 5 findings in the schema itself, so a literal model still gives 3-5. */
export const summaryDocumentSchema = tldrSchema.extend({ keyFindings: tldrSchema.shape.keyFindings.min(3).max(5) });

/** The TLDR's `update_notion`: the summary and its findings, structured, so the page is rendered the same way every time. */
export function createSummaryUpdateTool(options: DocumentGuardrails = {}) {
  return tool({
    name: 'update_notion',
    description: 'Store the session summary in Notion: the executive summary and 3 to 5 key findings, each citing the messages (#id) it rests on.',
    parameters: summaryDocumentSchema,
    inputGuardrails: options.inputGuardrails ?? [],
    async execute(summary, runContext?: RunContext<AgentContext>) {
      await portsOf(runContext).writeSummary(summary);
      // The stored summary itself, so a run that ends on this call ends with the summary as its output.
      return JSON.stringify(summary);
    },
  });
}
