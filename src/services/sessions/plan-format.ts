import type { LimitsConfig } from '../../config/app-config.ts';
import type { Session, SessionPlan } from '../../core/domain.ts';

/** How each limit is named in the notes under a plan ("max messages 5000 → 100"). */
export const LIMIT_NAMES: Readonly<Record<keyof SessionPlan['parameters'], string>> = {
  maxMessages: 'max messages',
  maxTokens: 'max tokens',
  maxCostUsd: 'max cost',
  timeoutMinutes: 'timeout minutes',
  maxContextPercent: 'context %',
};

const nonEmpty = (items: string[]) => items.map((item) => item.trim()).filter((item) => item !== '');

/**
 * A plan with its parameters clamped into the admin bounds and its empty parts filled from the topic, and the
 * adjustments made (shown under the plan): a plan is corrected with a note, never refused.
 */
export function clampPlan(plan: SessionPlan, bounds: LimitsConfig): { plan: SessionPlan; adjustments: string[] } {
  const adjustments: string[] = [];
  const clamp = (name: string, value: number, min: number, max: number) => {
    const clamped = Math.min(max, Math.max(min, Number.isFinite(value) ? value : max));
    if (clamped !== value) adjustments.push(`${name} ${value} → ${clamped}`);
    return clamped;
  };
  const parameters = plan.parameters;
  const objectives = nonEmpty(plan.objectives);
  if (objectives.length === 0) adjustments.push('no objectives were given: one was taken from the topic');
  const expandedTopic = plan.expandedTopic.trim();
  const clamped = {
    maxMessages: Math.round(clamp(LIMIT_NAMES.maxMessages, parameters.maxMessages, 1, bounds.maxMessages)),
    maxTokens: Math.round(clamp(LIMIT_NAMES.maxTokens, parameters.maxTokens, 1000, bounds.maxTokens)),
    maxCostUsd: clamp(LIMIT_NAMES.maxCostUsd, parameters.maxCostUsd, 0.01, bounds.maxCostUsd),
    timeoutMinutes: Math.round(clamp(LIMIT_NAMES.timeoutMinutes, parameters.timeoutMinutes, 1, bounds.timeoutMinutes)),
    maxContextPercent: Math.round(clamp(LIMIT_NAMES.maxContextPercent, parameters.maxContextPercent, 10, bounds.maxContextPercent)),
  };
  return {
    plan: {
      ...plan,
      objectives: objectives.length > 0 ? objectives : [`Explore ${expandedTopic || 'the topic'} and agree on next steps`],
      keyAreas: nonEmpty(plan.keyAreas),
      expectedFlow: nonEmpty(plan.expectedFlow),
      parameters: clamped,
      estimate: estimateWithin(plan.estimate, clamped),
    },
    adjustments,
  };
}

/**
 * The estimate, never past the plan's own limits: a session stops at them, so "~40 messages" under a 12-message limit
 * misleads. Models (and limits lowered with `!config`) produce such estimates; the limit line already says why.
 */
function estimateWithin(estimate: SessionPlan['estimate'], limits: SessionPlan['parameters']): SessionPlan['estimate'] {
  const within = (value: number, max: number) => Math.min(max, Math.max(0, Number.isFinite(value) ? value : 0));
  return {
    durationMinutes: within(estimate.durationMinutes, limits.timeoutMinutes),
    costUsd: within(estimate.costUsd, limits.maxCostUsd),
    messages: Math.round(within(estimate.messages, limits.maxMessages)),
  };
}

const list = (items: string[]) => items.map((item) => `• ${item}`).join('\n');

/**
 * The Planner's opening line for a session started inside a conversation (null otherwise): it says what it read
 * and what it gathers from it.
 */
export function conversationLead(session: Pick<Session, 'plannerState'>, gathered: string): string | null {
  const conversation = session.plannerState.conversation;
  if (!conversation) return null;
  const what = `${conversation.messages} message${conversation.messages === 1 ? '' : 's'} from ${conversation.speakers.join(', ')}`;
  return `From the conversation above (${what}) I gather: ${gathered}`;
}

/** What a plan message shows besides the plan: the opening line and the preset's lines. */
export interface PlanExtras {
  lead?: string | null;
  preset?: string[];
  /** The note on limits raised to leave room for a discussion (see viable-limits.ts). */
  raised?: string | null;
}

/** The plan as posted for approval. */
export function formatPlan(plan: SessionPlan, adjustments: string[], revision: number, extras: PlanExtras = {}): string {
  const parameters = plan.parameters;
  const lines = [
    ...(extras.lead ? [extras.lead, ''] : []),
    `**${revision > 0 ? `Revised plan (v${revision + 1})` : 'Proposed plan'}** — type \`!approve\` (or press Approve) to start, or write what to change.`,
    '',
    ...(extras.preset && extras.preset.length > 0 ? [...extras.preset, ''] : []),
    `**Topic:** ${plan.expandedTopic}`,
    '',
    `**Objectives**\n${list(plan.objectives)}`,
    '',
    `**Key areas**\n${list(plan.keyAreas)}`,
    '',
    `**Expected flow**\n${plan.expectedFlow.map((step, index) => `${index + 1}. ${step}`).join('\n')}`,
    '',
    `**Limits:** ${parameters.maxMessages} messages · ${parameters.maxTokens.toLocaleString('en-US')} tokens · $${parameters.maxCostUsd.toFixed(2)} · ${parameters.timeoutMinutes} min · context ${parameters.maxContextPercent}%`,
    `**Estimate:** ~${Math.round(plan.estimate.durationMinutes)} min · ~$${plan.estimate.costUsd.toFixed(2)} · ~${plan.estimate.messages} messages`,
    plan.critiqueRound
      ? '**Critique round:** yes — before the wrap-up, each participant ranks the leading proposals with their authors hidden (write "no critique round" to drop it).'
      : '**Critique round:** no (write "add a critique round" to have the participants rank the leading proposals anonymously before the wrap-up).',
  ];
  if (extras.raised) lines.push('', extras.raised);
  if (adjustments.length > 0) lines.push('', `_Adjusted to the admin limits: ${adjustments.join(', ')}._`);
  return lines.join('\n');
}

/** The Planner's clarifying questions as posted. */
export function formatQuestions(questions: string[], lead: string | null = null): string {
  return [
    ...(lead ? [lead, ''] : []),
    'Before I plan this session, a few questions:',
    ...questions.map((question, index) => `${index + 1}. ${question}`),
    '',
    'Answer here in the thread (one message is fine) and I will propose a plan.',
  ].join('\n');
}
