import { Agent, type Model, type RunErrorHandlers } from '@openai/agents';
import { AGENT_NAMES, type AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { tldrSchema } from '../../core/schemas.ts';
import { createPostToDiscordTool } from '../../tools/post-to-discord.ts';
import { createReadNotionTool } from '../../tools/read-notion.ts';
import { createSummaryUpdateTool } from '../../tools/update-notion.ts';
import { summaryGuardrail, summaryOutputGuardrail } from '../guardrails/document-guardrails.ts';
import { parseTldrText } from './tldr-text.ts';

/** What the TLDR needs to be built. */
export interface TldrAgentOptions {
  model: Model;
  prompts: PromptLibrary;
}

/** The name of the TLDR's prompt (`prompts/tldr-summary.txt`). */
export const TLDR_PROMPT = 'tldr-summary';

/**
 * The TLDR's output type: `tldrSchema` with 3 to 5 findings in the JSON schema itself (`minItems`/`maxItems`), so
 * a model that follows the schema and nothing else still gives 3-5 findings.
 */
export const tldrOutputSchema = tldrSchema.extend({ keyFindings: tldrSchema.shape.keyFindings.min(3).max(5) });

/** The TLDR agent type. */
export type TldrAgent = Agent<AgentContext, typeof tldrOutputSchema>;

/** The TLDR's `update_notion`: the structured summary, guarded (3-5 cited findings, no secrets or mentions). */
export function createTldrSummaryTool() {
  return createSummaryUpdateTool({ inputGuardrails: [summaryGuardrail()] });
}

/** Builds the TLDR: reads the Scribe's record and answers with `tldrOutputSchema` (summary and 3-5 traced findings). */
export function createTldrAgent(options: TldrAgentOptions): TldrAgent {
  return new Agent<AgentContext, typeof tldrOutputSchema>({
    name: AGENT_NAMES.tldr,
    instructions: options.prompts.render(TLDR_PROMPT, {}),
    model: options.model,
    modelSettings: { temperature: 0.2 },
    outputType: tldrOutputSchema,
    tools: [createReadNotionTool(), createTldrSummaryTool(), createPostToDiscordTool({ kind: 'tldr', name: AGENT_NAMES.tldr })],
    // 3-5 findings, each citing messages that exist: a summary that cites nothing is an opinion, not a finding.
    outputGuardrails: [summaryOutputGuardrail()],
  });
}

function lastText(output: unknown[]): string {
  for (const item of [...output].reverse()) {
    const message = item as { type?: string; role?: string; content?: { type?: string; text?: string }[] };
    if (message.type === 'message' && message.role === 'assistant') return (message.content ?? []).map((part) => part.text ?? '').join('');
  }
  return '';
}

/**
 * Run error handlers for runs ending in the TLDR: when its final output is not valid JSON, parse the text
 * (JSON in prose, or a summary followed by a bullet list) instead of failing the run.
 */
export function tldrErrorHandlers<TAgent extends TldrAgent>(): RunErrorHandlers<AgentContext, TAgent> {
  return {
    invalidFinalOutput: ({ runData }) => {
      const parsed = parseTldrText(lastText(runData.output));
      return parsed ? { finalOutput: parsed as never, includeInHistory: false } : undefined;
    },
  };
}
