/** The model runs of the ledger: one extraction per pass, and the Moderator's confirmation of a converged room. */
import { run, withTrace } from '@openai/agents';
import type { IdeaExtraction, IdeaExtractorAgent } from '../../agents/ideas/idea-extractor-agent.ts';
import type { ModeratorAgent } from '../../agents/moderator/moderator-agent.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import { citedLine } from '../../agents/scribe/scribe-input.ts';
import type { ModerationVerdict } from '../../core/schemas.ts';
import { passContext } from '../documentation/agent-runs.ts';
import type { ChatMessage } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import { ideaRef } from './ledger-markdown.ts';
import type { Idea } from '../../core/idea-ledger.ts';

/** The prompt of a convergence confirmation (`prompts/moderator-converged.txt`). */
export const CONVERGED_PROMPT = 'moderator-converged';

/** The extractor's input: the topic, the ideas known so far (by id), and the new messages cited by id. */
export function extractionInput(topic: string, known: readonly Idea[], messages: readonly ChatMessage[]): string {
  const ledger = known.length > 0 ? known.map((idea) => `${ideaRef(idea)}: ${idea.title} (proposed by ${idea.proposer})`).join('\n') : '(empty)';
  return [
    `Topic: ${topic}`,
    `Ideas already in the ledger:\n${ledger}`,
    `New messages (oldest first):\n${messages.map(citedLine).join('\n')}`,
    'Extract the ledger entries now.',
  ].join('\n\n');
}

/** Runs the extractor once; throws when the model fails or answers nothing. */
export async function runExtraction(agent: IdeaExtractorAgent, sessionId: string, input: string, signal: AbortSignal): Promise<IdeaExtraction> {
  const result = await withTrace('Idea ledger pass', () => run(agent, input, { context: passContext(sessionId), maxTurns: 2, signal }), {
    groupId: sessionId,
    metadata: { sessionId, kind: 'idea_ledger' },
  });
  if (!result.finalOutput) throw new BrainstormError('model_unavailable', 'The Idea Extractor returned no output.');
  return result.finalOutput;
}

/** The Moderator's word on a measured convergence: whether it agrees, and its wording. Never throws. */
export interface ConvergenceConfirmation {
  agreed: boolean;
  message: string | null;
  error: unknown;
}

/** Asks the Moderator (without tools) to confirm a convergence the ledger measured. */
export async function confirmConvergence(
  agent: ModeratorAgent,
  prompts: PromptLibrary,
  sessionId: string,
  facts: Record<string, string | number>,
): Promise<ConvergenceConfirmation> {
  try {
    const input = prompts.render(CONVERGED_PROMPT, facts);
    const quiet = agent.clone({ tools: [] });
    const result = await withTrace('Moderator convergence check', () => run(quiet, input, { context: passContext(sessionId), maxTurns: 2 }), {
      groupId: sessionId,
      metadata: { sessionId, kind: 'moderator_convergence' },
    });
    const verdict: ModerationVerdict | undefined = result.finalOutput;
    const message = verdict?.message.trim() ? verdict.message.trim() : null;
    return { agreed: verdict?.action === 'end', message, error: null };
  } catch (error) {
    return { agreed: false, message: null, error };
  }
}
