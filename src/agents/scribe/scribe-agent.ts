import { Agent, type Model } from '@openai/agents';
import { AGENT_NAMES, type AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { createUpdateNotionTool } from '../../tools/update-notion.ts';
import { scribeOutputGuardrail } from './scribe-guardrail.ts';

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
 * empty, refused or cut-off records). It may store the
 * record with `update_notion`; the wrap-up chain clones it with a handoff to the TLDR (`agent.clone({ handoffs })`).
 */
export function createScribeAgent(options: ScribeAgentOptions): Agent<AgentContext, 'text'> {
  return new Agent<AgentContext, 'text'>({
    name: AGENT_NAMES.scribe,
    instructions: options.prompts.render(SCRIBE_PROMPT, { title: options.title ?? 'Detailed record' }),
    model: options.model,
    modelSettings: { temperature: 0.2 },
    outputType: 'text',
    tools: [createUpdateNotionTool()],
    // An empty, refused or cut-off answer must never replace the record: the pass falls back to statistics.
    outputGuardrails: [scribeOutputGuardrail()],
  });
}
