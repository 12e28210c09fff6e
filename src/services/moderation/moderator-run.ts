import { OutputGuardrailTripwireTriggered, run, withTrace } from '@openai/agents';
import type { ModeratorAgent } from '../../agents/moderator/moderator-agent.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import type { ModerationVerdict } from '../../core/schemas.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { ChatMessage, Session, SessionPlan } from '../../core/domain.ts';
import type { LimitsReport, ToolPorts } from '../../core/ports.ts';
import type { FocusRequest } from '../../core/service-ports.ts';
import type { ModeratorSettings } from './moderation-host.ts';
import { formatMessages, formatObjectives } from './moderation-messages.ts';
import type { BalanceFinding } from './participation-balance.ts';

/** The prompt of a check's input (`prompts/moderator-check.txt`). */
export const CHECK_PROMPT = 'moderator-check';

/** Why a check runs. */
export type CheckTrigger = 'interval' | 'focus';

/** What the Moderator is shown for one check. */
export interface CheckFacts {
  session: Session;
  plan: SessionPlan;
  trigger: CheckTrigger;
  messages: ChatMessage[];
  limits: LimitsReport;
  similarity: number | null;
  imbalance: BalanceFinding;
  settings: ModeratorSettings;
  /** What a person asked `!focus` to turn to, if they named something. */
  focus?: FocusRequest | null;
}

/** Why the check runs, as the Moderator reads it. */
function describeTrigger(facts: CheckFacts): string {
  if (facts.trigger !== 'focus') return 'regular check';
  if (facts.focus)
    return `${facts.focus.by} asked the Moderator to refocus the discussion on "${facts.focus.text}": write a redirect toward it, tied to the objectives, even if the drift is slight`;
  return 'a person asked the Moderator to refocus the discussion: write a redirect even if the drift is slight';
}

/** The Moderator's answer to a check: its verdict (null when blocked or failed) and any end request. */
export interface ModeratorAnswer {
  verdict: ModerationVerdict | null;
  blockedByGuardrail: boolean;
  endRequested: string | null;
  /** What the Moderator posted itself with post_to_discord during the check, if it did. */
  posted: string | null;
  error: unknown;
}

function describeBalance(imbalance: BalanceFinding, limits: LimitsReport): string {
  const counts = limits.balance.map((entry) => `${entry.speaker} ${entry.messages}`).join(', ') || 'nobody yet';
  if (imbalance?.kind === 'quiet') return `${counts}. Quiet participant: ${imbalance.name}.`;
  if (imbalance?.kind === 'dominant') return `${counts}. Dominant participant: ${imbalance.name} (${Math.round(imbalance.share * 100)}% of messages).`;
  return `${counts}. Balanced.`;
}

/** Renders the check's input message. */
export function renderCheckInput(prompts: PromptLibrary, facts: CheckFacts): string {
  return prompts.render(CHECK_PROMPT, {
    trigger: describeTrigger(facts),
    topic: facts.plan.expandedTopic,
    objectives: formatObjectives(facts.plan),
    keyAreas: facts.plan.keyAreas.join(', ') || '(none)',
    similarity: facts.similarity === null ? 'unavailable (judge drift yourself)' : facts.similarity.toFixed(2),
    threshold: facts.settings.driftThreshold.toFixed(2),
    warnings: facts.session.moderationState.driftWarnings,
    maxWarnings: facts.settings.maxDriftWarnings,
    balance: describeBalance(facts.imbalance, facts.limits),
    messages: formatMessages(facts.messages),
  });
}

/**
 * Runs the Moderator once on a check, in its own trace grouped under the session. Its first call is forced to
 * `check_limits` (it reads usage through its tool, not from our prompt); after that the choice is free again.
 */
export async function askModerator(
  agent: ModeratorAgent,
  prompts: PromptLibrary,
  basePorts: ToolPorts,
  facts: CheckFacts,
  isActive: () => Promise<boolean>,
): Promise<ModeratorAnswer> {
  let endRequested: string | null = null;
  let posted: string | null = null;
  const ports: ToolPorts = {
    ...basePorts,
    // During a check the Moderator may ask to end; the service acts on it after the run, not inside the tool call.
    endSession: async (reason: string) => {
      endRequested = reason;
    },
    // Stop means stop: a post the Moderator makes while `!stop` lands is refused.
    postToRoom: async (speaker, content) => {
      if (!(await isActive())) throw new BrainstormError('wrong_state', 'The session has ended; nothing more is posted.');
      await basePorts.postToRoom(speaker, content);
      posted = content;
    },
  };
  const reading = agent.clone({ modelSettings: { ...agent.modelSettings, toolChoice: 'check_limits' } });
  const input = renderCheckInput(prompts, facts);
  try {
    const result = await withTrace('Moderator check', () => run(reading, input, { context: { ports, sessionId: facts.session.id }, maxTurns: 4 }), {
      groupId: facts.session.id,
      metadata: { sessionId: facts.session.id, kind: 'moderator_check', trigger: facts.trigger },
    });
    return { verdict: result.finalOutput ?? null, blockedByGuardrail: false, endRequested, posted, error: null };
  } catch (error) {
    const blocked = error instanceof OutputGuardrailTripwireTriggered;
    return { verdict: null, blockedByGuardrail: blocked, endRequested, posted, error: blocked ? null : error };
  }
}
