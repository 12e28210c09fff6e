import { Agent, type Model } from '@openai/agents';
import { AGENT_NAMES, type AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { createRecordUpdateTool } from '../../tools/update-notion.ts';
import { recordGuardrail } from '../guardrails/document-guardrails.ts';
import { updateNotionGuardrail } from '../guardrails/tool-guardrails.ts';
import { scribeOutputGuardrail } from './scribe-guardrail.ts';

/** The Scribe's `update_notion`: the record only, guarded against secrets, mentions and dropped voices. */
export function createScribeRecordTool() {
  return createRecordUpdateTool({ inputGuardrails: [updateNotionGuardrail(), recordGuardrail()] });
}

/** What the Scribe needs to be built. */
export interface ScribeAgentOptions {
  model: Model;
  prompts: PromptLibrary;
  /** The record's heading (usually the session topic). */
  title?: string;
}

/** The name of the Scribe's prompt (`prompts/scribe-record.txt`). */
export const SCRIBE_PROMPT = 'scribe-record';

/**
 * Builds the Scribe: a verbose markdown record that keeps every participant's reasoning (a guardrail blocks
 * empty, refused, cut-off records and records that drop a voice). It stores the record with `update_notion`
 * (forced in its passes); the wrap-up chain clones it with a handoff to the TLDR (`agent.clone({ handoffs })`).
 */
export function createScribeAgent(options: ScribeAgentOptions): Agent<AgentContext, 'text'> {
  return new Agent<AgentContext, 'text'>({
    name: AGENT_NAMES.scribe,
    instructions: options.prompts.render(SCRIBE_PROMPT, { title: options.title ?? 'Detailed record' }),
    model: options.model,
    modelSettings: { temperature: 0.2 },
    outputType: 'text',
    tools: [createScribeRecordTool()],
    // An empty, refused or cut-off answer must never replace the record: the pass falls back to statistics.
    outputGuardrails: [scribeOutputGuardrail()],
  });
}
