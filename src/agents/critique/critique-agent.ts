import { Agent, type Model, type RunErrorHandlers } from '@openai/agents';
import { z } from 'zod';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { AgentContext } from '../../core/agent-context.ts';
import type { SessionPlan } from '../../core/domain.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { parseCritiqueText } from './critique-text.ts';

/** The prompt of a reviewer's instructions (`prompts/critique.txt`). */
export const CRITIQUE_PROMPT = 'critique';

/** A participant's critique of the anonymised proposals (labels as given: "A", "B"…). */
export const critiqueSchema = z.object({
  ranking: z.array(z.string()).describe('Every proposal label ("A", "B", …), best first, each exactly once'),
  weakestAssumptions: z
    .array(
      z.object({
        proposal: z.string().describe('The proposal label'),
        assumption: z.string().describe('Its weakest assumption, in one sentence'),
      }),
    )
    .describe('The weakest assumption of each proposal, at least of the first choice'),
  reason: z.string().describe('Why the first choice is the best, in one sentence'),
});

/** A critique as the schema reads it (labels not yet checked). */
export type CritiqueOutput = z.infer<typeof critiqueSchema>;

/** The reviewer agent type. */
export type CritiqueAgent = Agent<AgentContext, typeof critiqueSchema>;

/** What a reviewer is built from. */
export interface CritiqueAgentOptions {
  participant: Pick<ParticipantConfig, 'name' | 'persona'>;
  model: Model;
  prompts: PromptLibrary;
  topic: string;
  plan: SessionPlan | null;
}

/** Builds a participant as a reviewer: its own model and persona, no tools, the critique as output. */
export function createCritiqueAgent(options: CritiqueAgentOptions): CritiqueAgent {
  const objectives = options.plan?.objectives ?? [];
  return new Agent<AgentContext, typeof critiqueSchema>({
    // Not the participant's own name: its answers' usage is counted with their messages, a critique's with the session
    // (the tracing processor counts every agent's calls but the participants').
    name: `${options.participant.name} (critique)`,
    instructions: options.prompts.render(CRITIQUE_PROMPT, {
      name: options.participant.name,
      persona: options.participant.persona,
      topic: options.plan?.expandedTopic ?? options.topic,
      objectives: objectives.length > 0 ? objectives.map((objective) => `- ${objective}`).join('\n') : '- (none stated)',
    }),
    model: options.model,
    modelSettings: { temperature: 0.2 },
    outputType: critiqueSchema,
  });
}

function lastText(output: readonly unknown[]): string {
  for (const item of [...output].reverse()) {
    const message = item as { type?: string; role?: string; content?: { text?: string }[] };
    if (message.type === 'message' && message.role === 'assistant') return (message.content ?? []).map((part) => part.text ?? '').join('');
  }
  return '';
}

/**
 * Run error handlers for a reviewer: an answer that misses the schema (prose around the JSON, other field
 * shapes, a "Ranking: B > A" line) is read leniently instead of failing the run.
 */
export function critiqueErrorHandlers(): RunErrorHandlers<AgentContext, CritiqueAgent> {
  return {
    invalidFinalOutput: ({ runData }) => {
      const parsed = parseCritiqueText(lastText(runData.output));
      return parsed ? { finalOutput: parsed, includeInHistory: false } : undefined;
    },
  };
}
