import { Agent, type AgentOutputType, type Model, type Tool, type ToolInputGuardrailDefinition } from '@openai/agents';
import type { LimitsConfig } from '../../config/app-config.ts';
import { AGENT_NAMES, type AgentContext } from '../agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { plannerQuestionsSchema } from '../schemas.ts';
import { createStartSessionTool } from '../../tools/start-session.ts';

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
  /** After a first round of questions the Planner must plan (the person already answered). */
  questionsAllowed: boolean;
}

/** Builds the Planner: clarifying questions as output, or `start_session` (needs approval) then a handoff. */
export function createPlannerAgent<ModeratorOutput extends AgentOutputType>(options: PlannerAgentOptions<ModeratorOutput>) {
  const questionPolicy = options.questionsAllowed && options.maxQuestions > 0
    ? 'Ask only when the answer would change the plan; otherwise plan right away.'
    : 'The person has answered already (or questions are turned off): do not ask more questions — call start_session now.';
  const instructions = options.prompts.render('planner', {
    participants: options.participantNames.join(', '),
    maxQuestions: options.maxQuestions,
    questionPolicy,
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
    modelSettings: { temperature: 0.3 },
    outputType: plannerQuestionsSchema,
    tools: [createStartSessionTool({ inputGuardrails: options.startSessionGuardrails ?? [] }), ...(options.extraTools ?? [])],
    handoffs: [options.moderator],
    // The Planner ends with questions and the Moderator with a verdict: different outputs are intended.
    handoffOutputTypeWarningEnabled: false,
  });
}
