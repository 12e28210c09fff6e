import type { Session, SessionPlan } from '../../core/domain.ts';
import { plannerComments, withCritiqueDirective } from '../critique/plan-directive.ts';
import { withLimitDirectives } from './limit-directive.ts';
import type { PresetService } from './session-presets.ts';

/**
 * The plan as people decided it: the Planner's, shaped by the session's preset, then with the critique round and
 * the limits as people's own words set them. Limits come from comments on a shown plan only: answers to the
 * Planner's questions describe the topic ("a budget of $500 for tooling"), not the session.
 */
export function planAsDecided(
  session: Pick<Session, 'plannerState' | 'plan'>,
  plan: SessionPlan,
  presets: Pick<PresetService, 'shape'> | undefined,
): SessionPlan {
  const shaped = presets ? presets.shape(session, plan) : plan;
  return withLimitDirectives(withCritiqueDirective(shaped, plannerComments(session.plannerState)), session.plannerState.revisionRequests);
}

/**
 * The plan a person approved: as decided, with the limits of the plan they were shown (the approved call carries
 * the Planner's own, before the preset and people's words shaped them). A preset chosen since the plan was shown
 * (`!preset` just before `!approve`) brings its own limits instead.
 */
export function planAsApproved(
  session: Pick<Session, 'plannerState' | 'plan'>,
  plan: SessionPlan,
  presets: Pick<PresetService, 'shape'> | undefined,
): SessionPlan {
  const decided = planAsDecided(session, plan, presets);
  const shown = session.plan;
  return shown && shown.preset === decided.preset ? { ...decided, parameters: shown.parameters } : decided;
}
