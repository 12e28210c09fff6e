import type { Agent, Model, OutputGuardrail, Tool, ToolInputGuardrailDefinition } from '@openai/agents';
import type { LimitsConfig } from '../config/app-config.ts';
import type { ParticipantConfig } from '../config/roster.ts';
import type { Session } from '../core/domain.ts';
import type { AgentContext, RoleName } from '../core/agent-context.ts';
import { createParticipantAgent } from './participants/participant-agent.ts';
import { createPlannerAgent, type PlannerMode } from './planner/planner-agent.ts';
import type { PromptLibrary } from './prompts/prompt-library.ts';
import type { SecretScanCache } from './guardrails/secret-scan-cache.ts';
import type { moderationVerdictSchema } from '../core/schemas.ts';

/** Where agents get their models (the model catalog satisfies it). */
export interface ModelSource {
  participant(id: string): Model;
  role(role: RoleName): Model;
}

/** Builds the Moderator agent the Planner hands off to (supplied by the moderation module). */
export type ModeratorFactory = (model: Model) => Agent<AgentContext, typeof moderationVerdictSchema>;

/** Everything the directory needs. */
export interface AgentDirectoryOptions {
  models: ModelSource;
  prompts: PromptLibrary;
  limits: () => LimitsConfig;
  maxPlannerQuestions: number;
  createModerator: ModeratorFactory;
  participantGuardrails: (rosterNames: string[], self: string) => OutputGuardrail<'text'>[];
  startSessionGuardrails: ToolInputGuardrailDefinition<AgentContext>[];
  plannerTools: Tool<AgentContext>[];
  /** A participant's role note for the session now (the idea ledger's roles), or null. */
  roleNote?: (session: Session, participant: string, participantNames: string[]) => string | null;
  /** What a participant's input is screened with: the deployment's keys, and the scans of messages already read. */
  participantInputScreen?: { knownSecrets?: readonly string[]; scans?: SecretScanCache };
}

/** Builds the agents of a session from the roster, the prompts and the guardrails. */
export class AgentDirectory {
  constructor(private readonly options: AgentDirectoryOptions) {}

  /** The Planner for a run of `mode` (the Moderator handoff only in `open`); any mode restores a stored RunState. */
  planner(roster: ParticipantConfig[], mode: PlannerMode) {
    return createPlannerAgent({
      model: this.options.models.role('planner'),
      prompts: this.options.prompts,
      limits: this.options.limits(),
      maxQuestions: this.options.maxPlannerQuestions,
      participantNames: roster.map((participant) => participant.name),
      moderator: this.options.createModerator(this.options.models.role('moderator')),
      extraTools: this.options.plannerTools,
      startSessionGuardrails: this.options.startSessionGuardrails,
      mode,
    });
  }

  /** A participant of a session. */
  participant(session: Session, participant: ParticipantConfig, roster: ParticipantConfig[]): Agent<AgentContext, 'text'> {
    const names = roster.map((entry) => entry.name);
    return createParticipantAgent({
      participant,
      model: this.options.models.participant(participant.id),
      prompts: this.options.prompts,
      topic: session.topic,
      plan: session.plan,
      otherParticipantNames: names.filter((name) => name !== participant.name),
      outputGuardrails: this.options.participantGuardrails(names, participant.name),
      roleNote: this.options.roleNote?.(session, participant.name, names) ?? null,
      ...(this.options.participantInputScreen ? { inputScreen: this.options.participantInputScreen } : {}),
    });
  }
}
