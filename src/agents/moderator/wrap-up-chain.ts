import { handoff, type Agent, type AgentOutputType, type RunContext } from '@openai/agents';
import { tldrSchema, type moderationVerdictSchema } from '../../core/schemas.ts';
import type { tldrOutputSchema } from '../tldr/tldr-agent.ts';
import type { AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';

/** The Moderator as the chain expects it (verdict output). */
export type ChainModerator = Agent<AgentContext, typeof moderationVerdictSchema>;
/** The Scribe as the chain expects it (markdown text output, per the agent protocol). */
export type ChainScribe = Agent<AgentContext, 'text'>;
/** The TLDR as the chain expects it (`tldrOutputSchema`: 3-5 findings, per the agent protocol). */
export type ChainTldr = Agent<AgentContext, typeof tldrOutputSchema>;

/** The prompt appended to the Moderator's and the Scribe's instructions during the wrap-up. */
export const WRAP_UP_STEP_PROMPT = 'moderator-wrap-up-step';

/** The three agents of the wrap-up chain, each cloned with its onward handoff. */
export interface WrapUpChain {
  /** Where the run starts: the Moderator with a handoff to the Scribe. */
  root: ChainModerator;
  /** The Scribe with a handoff to the TLDR (to resume the chain from the Scribe). */
  scribe: ChainScribe;
  /** The TLDR (the end of the chain). */
  tldr: ChainTldr;
}

/** True when a tool output is a stored summary (a rejected call returns the guardrail's reason instead). */
function storedSummary(output: unknown): boolean {
  if (typeof output !== 'string') return false;
  try {
    return tldrSchema.safeParse(JSON.parse(output)).success;
  } catch {
    return false;
  }
}

function withWrapUpStep<Output extends AgentOutputType>(agent: Agent<AgentContext, Output>, step: string): Agent<AgentContext, Output>['instructions'] {
  const base = agent.instructions;
  if (typeof base === 'string') return `${base}\n\n${step}`;
  return async (runContext: RunContext<AgentContext>, self: Agent<AgentContext, Output>) => `${await base(runContext, self)}\n\n${step}`;
}

/**
 * Composes Moderator -> Scribe -> TLDR for one SDK run: the Moderator assesses and hands off to the Scribe,
 * the Scribe writes the final record and hands off to the TLDR, which answers with the summary. The
 * originals are untouched (clones with new handoff lists).
 */
export function buildWrapUpChain(agents: { moderator: ChainModerator; scribe: ChainScribe; tldr: ChainTldr; prompts: PromptLibrary }): WrapUpChain {
  // The TLDR must store its summary: the call is forced until it succeeds, and the run ends on it.
  const tldr = agents.tldr.clone({
    modelSettings: { ...agents.tldr.modelSettings, toolChoice: 'update_notion' },
    resetToolChoice: false,
    toolUseBehavior: async (_context, results) => {
      const stored = results.find((result) => result.tool.name === 'update_notion' && result.type === 'function_output' && storedSummary(result.output));
      return stored?.type === 'function_output'
        ? { isFinalOutput: true, isInterrupted: undefined, finalOutput: String(stored.output) }
        : { isFinalOutput: false, isInterrupted: undefined };
    },
  });
  const scribe = agents.scribe.clone({
    // The Scribe's first call stores the final record; after it, the choice is free again (the handoff).
    modelSettings: { ...agents.scribe.modelSettings, toolChoice: 'update_notion' },
    instructions: withWrapUpStep(agents.scribe, agents.prompts.render(WRAP_UP_STEP_PROMPT, { handoffTool: `transfer_to_${tldr.name}` })),
    handoffs: [handoff(tldr)],
    // Each step of the chain has its own output (verdict, markdown, summary): intended.
    handoffOutputTypeWarningEnabled: false,
  });
  const root = agents.moderator.clone({
    instructions: withWrapUpStep(agents.moderator, agents.prompts.render(WRAP_UP_STEP_PROMPT, { handoffTool: `transfer_to_${scribe.name}` })),
    handoffs: [handoff(scribe)],
    handoffOutputTypeWarningEnabled: false,
  });
  return { root, scribe, tldr };
}
