/**
 * A person's word on a session's limits in a comment on the plan ("keep it to 20 messages", "budget $0.50", "30
 * minutes max"): it decides, whatever the plan says, as a preset's limits would otherwise stand over the Planner's.
 */
import type { SessionParameters, SessionPlan } from '../../core/domain.ts';

/** Words that make a number a limit ("at most 20 messages"), not a remark ("the last one ran 60 messages"). */
const LIMITING = String.raw`max(?:imum)?|at\s+most|up\s+to|limit(?:ed)?|cap(?:ped)?|keep|no\s+more\s+than|not\s+more\s+than|stop\s+(?:at|after)`;
/** Words that make a number a limit of time or size, but of money could be the topic's ("options under $50"). */
const BOUNDING = String.raw`less\s+than|fewer\s+than|only|under|within|shorter|short`;
/** Words that tie an amount to the session's spending. */
const SPENDING = String.raw`budget|spend(?:ing)?|costs?`;
const AFTER = String.raw`\s*(?:max(?:imum)?|at\s+most|tops|or\s+(?:less|fewer)|is\s+(?:enough|plenty)|will\s+do|should\s+do|budget|limit|cap)\b`;
/**
 * A rate, a share or a span of something else ("5 minutes per idea", "$50 a month", "20 messages each", "under 30
 * minutes to set up", "within 2 hours of the release") is no limit of the session.
 */
const NOT_A_RATE = String.raw`(?!\s+(?:per|each|apiece|an?|of|from|ago|after|before|since|to\s+(?:set\s+up|setup|build|ship|deploy|install|implement|run|read|learn|finish|complete))\b)`;
/** An amount ends where its number does: "$5k" and "$20,000" are not $5 and $20. */
const WHOLE_AMOUNT = String.raw`(?!\d|[,.]\d|\s*[km]\b)`;

/** Each limit's quantity: a number and its unit, the words that make it a limit, and how it reads as the value. */
const QUANTITIES: { parameter: keyof SessionParameters; pattern: string; cues: string; value: (match: RegExpExecArray) => number }[] = [
  {
    parameter: 'maxMessages',
    pattern: String.raw`\b(\d{1,4})\s*(?:messages?|msgs?|answers|replies|turns)\b`,
    cues: `${LIMITING}|${BOUNDING}`,
    value: (match) => Number(match[1]),
  },
  { parameter: 'timeoutMinutes', pattern: String.raw`\b(\d{1,4})\s*(?:minutes?|mins?)\b`, cues: `${LIMITING}|${BOUNDING}`, value: (match) => Number(match[1]) },
  {
    parameter: 'timeoutMinutes',
    pattern: String.raw`\b(\d{1,2}(?:\.\d+)?)\s*(?:hours?|hrs?)\b`,
    cues: `${LIMITING}|${BOUNDING}`,
    value: (match) => Math.round(Number(match[1]) * 60),
  },
  {
    parameter: 'maxCostUsd',
    pattern: String.raw`\$\s?(\d{1,4}(?:\.\d{1,2})?)${WHOLE_AMOUNT}`,
    cues: `${LIMITING}|${SPENDING}`,
    value: (match) => Number(match[1]),
  },
  {
    parameter: 'maxCostUsd',
    pattern: String.raw`\b(\d{1,4}(?:\.\d{1,2})?)\s*(?:usd|dollars?)\b`,
    cues: `${LIMITING}|${SPENDING}`,
    value: (match) => Number(match[1]),
  },
  {
    parameter: 'maxTokens',
    // The spaces after a `k` belong to it: `\s*(k)?\s*` tried every split of a run of spaces (quadratic).
    pattern: String.raw`\b(\d{1,3}(?:,\d{3})+|\d{1,7})\s*(?:(k)\s*)?tokens\b`,
    cues: `${LIMITING}|${BOUNDING}`,
    value: (match) => Number((match[1] ?? '').replaceAll(',', '')) * (match[2] ? 1000 : 1),
  },
];

const PATTERNS = QUANTITIES.map((quantity) => ({
  ...quantity,
  before: new RegExp(String.raw`\b(?:${quantity.cues})\b[^.!?\n\d$]{0,24}?${quantity.pattern}${NOT_A_RATE}`, 'i'),
  after: new RegExp(`${quantity.pattern}${NOT_A_RATE}${AFTER}`, 'i'),
}));

/** The limits a comment sets, by parameter (empty when it sets none). */
export function limitDirective(comment: string): Partial<SessionParameters> {
  const decided: Partial<SessionParameters> = {};
  for (const { parameter, before, after, value } of PATTERNS) {
    const match = before.exec(comment) ?? after.exec(comment);
    if (!match) continue;
    const number = value(match);
    if (Number.isFinite(number) && number > 0) decided[parameter] = number;
  }
  return decided;
}

/** The plan with each limit a comment names set as the latest such comment says (unchanged when none does). */
export function withLimitDirectives(plan: SessionPlan, comments: readonly string[]): SessionPlan {
  const decided = comments.reduce<Partial<SessionParameters>>((limits, comment) => ({ ...limits, ...limitDirective(comment) }), {});
  return Object.keys(decided).length === 0 ? plan : { ...plan, parameters: { ...plan.parameters, ...decided } };
}
