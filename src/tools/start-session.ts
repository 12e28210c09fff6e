import { tool, type RunContext, type ToolInputGuardrailDefinition } from '@openai/agents';
import type { AgentContext } from '../core/agent-context.ts';
import { sessionPlanSchema } from '../core/schemas.ts';

/** The tool's name (the Planner's forced tool choice names it). */
export const START_SESSION_TOOL = 'start_session';

/**
 * `start_session`: the Planner proposes the plan; a person must approve it (the run pauses here and its
 * state is stored until `!approve`). Thin: validates and delegates to the session services.
 */
export function createStartSessionTool(options: { inputGuardrails?: ToolInputGuardrailDefinition<AgentContext>[] } = {}) {
  return tool({
    name: START_SESSION_TOOL,
    description: 'Propose the session plan. A person must approve it before the discussion starts.',
    parameters: sessionPlanSchema,
    needsApproval: true,
    inputGuardrails: options.inputGuardrails ?? [],
    async execute(plan, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('start_session needs the session ports in its run context');
      await ports.startSession(plan);
      return 'The plan was approved and the session is active. Hand off to the Moderator now.';
    },
  });
}
