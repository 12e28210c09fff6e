import { participantInputGuardrail } from '../guardrails/input-guardrails.ts';
import type { SecretScanCache } from '../guardrails/secret-scan-cache.ts';
import { Agent, type Model, type OutputGuardrail } from '@openai/agents';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { SessionPlan } from '../../core/domain.ts';
import type { AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { webSearchSettings } from './web-search.ts';

/** What a participant agent is built from. */
export interface ParticipantAgentOptions {
  participant: ParticipantConfig;
  model: Model;
  prompts: PromptLibrary;
  topic: string;
  plan: SessionPlan | null;
  otherParticipantNames: string[];
  outputGuardrails?: OutputGuardrail<'text'>[];
  maxWords?: number;
  /** The participant's role for this part of the session (against sycophancy), appended to its instructions. */
  roleNote?: string | null;
  /** The deployment's own keys, never to reach a model, and the scans of messages already read (shared by every turn). */
  inputScreen?: { knownSecrets?: readonly string[]; scans?: SecretScanCache };
}

function bulletList(items: string[]): string {
  return items.length > 0 ? items.map((item) => `- ${item}`).join('\n') : '- (none stated)';
}

/** Builds one participant: its persona, the plan, and plain-text answers (no function tools; OpenRouter's web search when on). */
export function createParticipantAgent(options: ParticipantAgentOptions): Agent<AgentContext, 'text'> {
  const instructions =
    options.prompts.render('participant', {
      name: options.participant.name,
      persona: options.participant.persona,
      otherParticipants: options.otherParticipantNames.join(', ') || 'none',
      topic: options.plan?.expandedTopic ?? options.topic,
      objectives: bulletList(options.plan?.objectives ?? []),
      keyAreas: (options.plan?.keyAreas ?? []).join('; ') || 'open',
      maxWords: options.maxWords ?? 220,
    }) + (options.roleNote ? `\n\n${options.roleNote}` : '');
  return new Agent<AgentContext, 'text'>({
    name: options.participant.name,
    instructions,
    model: options.model,
    modelSettings: { temperature: options.participant.temperature, ...webSearchSettings(options.participant.webSearch) },
    outputType: 'text',
    outputGuardrails: options.outputGuardrails ?? [],
    // The conversation it reads carries no secret, whatever path it took into the store.
    inputGuardrails: [participantInputGuardrail(options.inputScreen)],
  });
}
