/**
 * The least a session's limits must allow for a discussion to happen at all. Models misread the plan's numbers: the
 * token budget of one answer given as the session's (4,000 tokens: closed after the opening round), or "1" for every
 * number when a model fills the schema without reading it. Below these, the Planner's limit is taken for such a
 * misreading and the admin's default stands instead; a person who wants less says so in a comment on the plan, and
 * their word decides (see limit-directive.ts).
 */
import type { LimitsConfig } from '../../config/app-config.ts';
import type { SessionParameters, SessionPlan } from '../../core/domain.ts';
import { LIMIT_NAMES } from './plan-format.ts';

type ViableLimit = 'maxMessages' | 'maxTokens' | 'maxCostUsd' | 'timeoutMinutes';

/** Each limit's least value for a discussion: two rounds of three participants, and what they take. */
export const VIABLE_LIMITS: Readonly<Record<ViableLimit, number>> = { maxMessages: 6, maxTokens: 20_000, maxCostUsd: 0.05, timeoutMinutes: 5 };

/** One limit raised to the admin's default: which, from what, to what. */
export interface RaisedLimit {
  parameter: ViableLimit;
  from: number;
  to: number;
}

/** The plan with each limit too small for a discussion raised to the admin's default, and what was raised. */
export function withViableLimits(plan: SessionPlan, defaults: LimitsConfig): { plan: SessionPlan; raised: RaisedLimit[] } {
  const raised: RaisedLimit[] = [];
  const parameters: SessionParameters = { ...plan.parameters };
  for (const parameter of Object.keys(VIABLE_LIMITS) as ViableLimit[]) {
    const value = parameters[parameter];
    // An admin default below the least is the admin's choice: a plan is raised to it, never past it.
    if (Number.isFinite(value) && value < Math.min(VIABLE_LIMITS[parameter], defaults[parameter])) {
      raised.push({ parameter, from: value, to: defaults[parameter] });
      parameters[parameter] = defaults[parameter];
    }
  }
  return { plan: raised.length > 0 ? { ...plan, parameters } : plan, raised };
}

/** The plan's note on the limits raised ("max messages 1 → 40"), or null when none was. */
export function raisedLimitsNote(raised: readonly RaisedLimit[]): string | null {
  if (raised.length === 0) return null;
  const changes = raised.map((limit) => `${LIMIT_NAMES[limit.parameter]} ${limit.from} → ${limit.to}`).join(', ');
  return `_Raised to leave room for a discussion: ${changes}. A comment such as "keep it to 8 messages" sets a limit lower._`;
}
