import { Agent, type Model, type Tool, type ToolInputGuardrailDefinition } from '@openai/agents';
import { createCheckLimitsTool } from '../../tools/check-limits.ts';
import { createEndSessionTool } from '../../tools/end-session.ts';
import { createPostToDiscordTool } from '../../tools/post-to-discord.ts';
import { AGENT_NAMES, type AgentContext } from '../../core/agent-context.ts';
import { moderatorOutputGuardrail } from '../guardrails/moderator-output-guardrail.ts';
import { postToDiscordGuardrail } from '../guardrails/tool-guardrails.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { moderationVerdictSchema } from '../../core/schemas.ts';

/** The prompt of the Moderator's instructions (`prompts/moderator.txt`). */
export const MODERATOR_PROMPT = 'moderator';

/** What the Moderator needs to be built. */
export interface ModeratorAgentOptions {
  model: Model;
  prompts: PromptLibrary;
  /** Guardrails for its `post_to_discord` (defaults to the length/mention/secret guardrail). */
  postGuardrails?: ToolInputGuardrailDefinition<AgentContext>[];
  /** Extra tools (none by default). */
  extraTools?: Tool<AgentContext>[];
}

/** The Moderator agent type: its final output is a `ModerationVerdict`. */
export type ModeratorAgent = Agent<AgentContext, typeof moderationVerdictSchema>;

/**
 * Builds the Moderator: verdict output, tools `check_limits`, `post_to_discord`, `end_session`, and an
 * output guardrail that keeps its message civil and free of mentions. The same agent opens the discussion
 * after the Planner's handoff, runs the checks, and leads the wrap-up chain.
 */
export function createModeratorAgent(options: ModeratorAgentOptions): ModeratorAgent {
  return new Agent<AgentContext, typeof moderationVerdictSchema>({
    name: AGENT_NAMES.moderator,
    handoffDescription: 'Opens the approved discussion, keeps it on course and wraps it up.',
    instructions: options.prompts.render(MODERATOR_PROMPT, {}),
    model: options.model,
    modelSettings: { temperature: 0.2 },
    outputType: moderationVerdictSchema,
    tools: [
      createCheckLimitsTool(),
      createPostToDiscordTool({ kind: 'moderator', name: AGENT_NAMES.moderator }, { inputGuardrails: options.postGuardrails ?? [postToDiscordGuardrail()] }),
      createEndSessionTool(),
      ...(options.extraTools ?? []),
    ],
    outputGuardrails: [moderatorOutputGuardrail()],
  });
}
