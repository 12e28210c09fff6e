import type { LimitsConfig } from '../../config/app-config.ts';
import type { Session, SessionPlan } from '../../core/domain.ts';
import { plannerComments, withCritiqueDirective } from '../critique/plan-directive.ts';
import { withLimitDirectives } from './limit-directive.ts';
import type { PresetService } from './session-presets.ts';
import { withViableLimits, type RaisedLimit } from './viable-limits.ts';

/**
 * The plan as people decided it: the Planner's, shaped by the session's preset, its limits too small for a
 * discussion raised to the admin's defaults, then with the critique round and the limits as people's own words set
 * them. Limits come from comments on a shown plan only: answers to the Planner's questions describe the topic ("a
 * budget of $500 for tooling"), not the session. `raised` names the limits raised that people's words left so.
 */
export function planAsDecided(
  session: Pick<Session, 'plannerState' | 'plan'>,
  plan: SessionPlan,
  presets: Pick<PresetService, 'shape'> | undefined,
  defaults: LimitsConfig,
): { plan: SessionPlan; raised: RaisedLimit[] } {
  const viable = withViableLimits(presets ? presets.shape(session, plan) : plan, defaults);
  const decided = withLimitDirectives(withCritiqueDirective(viable.plan, plannerComments(session.plannerState)), session.plannerState.revisionRequests);
  return { plan: decided, raised: viable.raised.filter((limit) => decided.parameters[limit.parameter] === limit.to) };
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
  defaults: LimitsConfig,
): SessionPlan {
  const decided = planAsDecided(session, plan, presets, defaults).plan;
  const shown = session.plan;
  return shown && shown.preset === decided.preset ? { ...decided, parameters: shown.parameters } : decided;
}
