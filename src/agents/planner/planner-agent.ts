import { plannerInputGuardrail } from '../guardrails/input-guardrails.ts';
import { Agent, type AgentOutputType, type Model, type ModelSettings, type Tool, type ToolInputGuardrailDefinition } from '@openai/agents';
import type { LimitsConfig } from '../../config/app-config.ts';
import { AGENT_NAMES, type AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { plannerQuestionsSchema } from '../../core/schemas.ts';
import { createStartSessionTool, START_SESSION_TOOL } from '../../tools/start-session.ts';

/**
 * What a Planner run must do, decided by the flow, never left to the model's goodwill:
 * - `ask`: questions are still allowed; the model may ask or call `start_session` (tool choice auto);
 * - `plan`: `start_session` is forced (questions spent or turned off, a revision after a comment, a re-plan);
 * - `open`: the plan was approved; the handoff to the Moderator is offered and forced.
 */
export type PlannerMode = 'ask' | 'plan' | 'open';

/** The handoff tool the Planner hands the approved discussion over with. */
export const PLANNER_HANDOFF_TOOL = `transfer_to_${AGENT_NAMES.moderator}`;

/** What the Planner needs to be built. */
export interface PlannerAgentOptions<ModeratorOutput extends AgentOutputType> {
  model: Model;
  prompts: PromptLibrary;
  limits: LimitsConfig;
  maxQuestions: number;
  participantNames: string[];
  /** The agent the Planner hands off to once the plan is approved. */
  moderator: Agent<AgentContext, ModeratorOutput>;
  extraTools?: Tool<AgentContext>[];
  startSessionGuardrails?: ToolInputGuardrailDefinition<AgentContext>[];
  mode: PlannerMode;
}

const QUESTION_POLICY: Record<PlannerMode, string> = {
  ask: 'Ask only when the answer would change the plan; otherwise plan right away.',
  plan: 'The person has answered already (or questions are turned off): do not ask more questions — call start_session now.',
  open: 'The plan is approved: hand off to the Moderator now.',
};

/**
 * Forced tool choices stay forced after a tool result (`resetToolChoice: false`), so a rejected or invalid
 * call is followed by another call of the same tool rather than by an answer that ends the run without one.
 */
function settingsFor(mode: PlannerMode): { modelSettings: ModelSettings; resetToolChoice: boolean } {
  if (mode === 'plan') return { modelSettings: { temperature: 0.3, toolChoice: START_SESSION_TOOL }, resetToolChoice: false };
  if (mode === 'open') return { modelSettings: { temperature: 0.3, toolChoice: PLANNER_HANDOFF_TOOL }, resetToolChoice: false };
  return { modelSettings: { temperature: 0.3 }, resetToolChoice: true };
}

/** Builds the Planner: clarifying questions as output, or `start_session` (needs approval), then a handoff. */
export function createPlannerAgent<ModeratorOutput extends AgentOutputType>(options: PlannerAgentOptions<ModeratorOutput>) {
  const mode = options.maxQuestions === 0 && options.mode === 'ask' ? 'plan' : options.mode;
  const instructions = options.prompts.render('planner', {
    participants: options.participantNames.join(', '),
    maxQuestions: options.maxQuestions,
    questionPolicy: QUESTION_POLICY[mode],
    minMessages: Math.min(10, options.limits.maxMessages),
    maxMessages: options.limits.maxMessages,
    maxTokens: options.limits.maxTokens,
    maxCostUsd: options.limits.maxCostUsd,
    timeoutMinutes: options.limits.timeoutMinutes,
    maxContextPercent: options.limits.maxContextPercent,
  });
  return new Agent<AgentContext, typeof plannerQuestionsSchema>({
    name: AGENT_NAMES.planner,
    instructions,
    model: options.model,
    ...settingsFor(mode),
    outputType: plannerQuestionsSchema,
    // An empty, oversized or secret-bearing topic never reaches the model.
    inputGuardrails: [plannerInputGuardrail()],
    tools: [createStartSessionTool({ inputGuardrails: options.startSessionGuardrails ?? [] }), ...(options.extraTools ?? [])],
    // Offered only once the plan is approved; the stored run names the Planner alone, so it restores either way.
    handoffs: mode === 'open' ? [options.moderator] : [],
    // The Planner ends with questions and the Moderator with a verdict: different outputs are intended.
    handoffOutputTypeWarningEnabled: false,
  });
}
