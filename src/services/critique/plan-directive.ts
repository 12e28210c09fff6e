/** A person's word on the critique round in a comment on the plan: it decides, whatever the revised plan says. */
import type { PlannerState, SessionPlan } from '../../core/domain.ts';

const CRITIQUE = String.raw`critique(?:\s+round)?`;
const DROP = new RegExp(String.raw`\b(?:no|without|drop|remove|skip|cancel|don'?t\s+(?:add|run|want|need))\b[^.!?\n]{0,30}?\b${CRITIQUE}`, 'i');
const ADD = new RegExp(String.raw`\b(?:add|with|include|want|run|do|need|use)\b[^.!?\n]{0,30}?\b${CRITIQUE}`, 'i');

/** What a comment says about the critique round: true (add it), false (drop it), or null (nothing). */
export function critiqueDirective(comment: string): boolean | null {
  if (DROP.test(comment)) return false;
  if (ADD.test(comment)) return true;
  return null;
}

/** The plan with the critique round as the latest comment that mentions it asks (unchanged when none does). */
export function withCritiqueDirective(plan: SessionPlan, comments: readonly string[]): SessionPlan {
  const decided = comments.map(critiqueDirective).findLast((directive): directive is boolean => directive !== null);
  return decided === undefined ? plan : { ...plan, critiqueRound: decided };
}

/** What people told the Planner, in order: answers to its questions, then comments on the plan. */
export function plannerComments(state: Pick<PlannerState, 'answers' | 'revisionRequests'>): string[] {
  return [...state.answers.map((answer) => answer.text), ...state.revisionRequests];
}
