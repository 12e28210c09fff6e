import type { ParticipantConfig } from '../../config/roster.ts';
import { spokenList } from '../../core/spoken-list.ts';
import type { TurnOutcome } from './turn-outcome.ts';

/** The room's notice after a turn: a failure (benched or not) or a missed deadline; null when there is nothing to say. */
export function turnNotice(participant: ParticipantConfig, outcome: TurnOutcome, active: ParticipantConfig[]): string | null {
  if (outcome.status === 'interrupted' && (outcome.cut === 'first_token_deadline' || outcome.cut === 'answer_deadline')) {
    return `${participant.name} is slow; going on without it.`;
  }
  if (outcome.status !== 'failed') return null;
  const benched = !active.some((entry) => entry.id === participant.id);
  if (benched)
    return `${participant.name} is benched for now: its model (${participant.model}) failed repeatedly. The others carry on; it rejoins when the model recovers.`;
  return outcome.partial
    ? `${participant.name} stopped mid-answer (its model failed); what it wrote is kept, marked interrupted. The others carry on.`
    : `${participant.name} could not answer this time (its model did not respond). The others carry on.`;
}

/** What the room was last told of a participant's trouble. */
export type Announced = 'failed' | 'benched' | undefined;

/**
 * One notice when a participant first fails or stalls, one when it is benched, one when it is back: what to post
 * after a turn (or null) and what the room then knows.
 */
export function noticeAfterTurn(
  participant: ParticipantConfig,
  outcome: TurnOutcome,
  active: ParticipantConfig[],
  announced: Announced,
): { text: string | null; announced: Announced } {
  if (outcome.status === 'answered')
    return { text: announced === 'benched' ? `${participant.name} is back: its model answers again.` : null, announced: undefined };
  const note = turnNotice(participant, outcome, active);
  if (!note || announced === 'benched') return { text: null, announced };
  const kind = outcome.status === 'failed' && !active.some((entry) => entry.id === participant.id) ? 'benched' : 'failed';
  return kind === announced ? { text: null, announced } : { text: note, announced: kind };
}

/** The loop guard's notice: with a limit of 0 the participants answer people only, so `!continue` would not help. */
export function waitingNotice(maxAiRoundsWithoutHuman: number): string {
  return maxAiRoundsWithoutHuman === 0
    ? 'The participants are waiting for a person: they answer people only here (`MAX_AI_ROUNDS_WITHOUT_HUMAN` is 0).'
    : 'The participants are waiting for a person: say something, or `!continue` to let them go on.';
}

/** A participant of a round whose answer was withheld as a repeat of its own answer `repeatOf`. */
export interface RoundRepeat {
  participantId: string;
  name: string;
  repeatOf: number;
}

/**
 * The room's one notice for a round's repeats, instead of one per participant and round: the repeaters not yet
 * announced (until they answer again), and always when a person's message got nothing but repeats, so nobody is
 * left with a silent room. `announced`: who the room now knows to be repeating.
 */
export function repeatsNotice(
  repeats: RoundRepeat[],
  options: {
    announced: ReadonlySet<string>;
    answeredIds: ReadonlySet<string>;
    personUnanswered: boolean;
    /** The room has AI rounds, which the repeaters sit out until a person speaks (see `restingAfterRound`). */
    aiRounds?: boolean;
  },
): { text: string | null; announced: Set<string> } {
  const announced = new Set([...options.announced].filter((id) => !options.answeredIds.has(id)));
  const named = options.personUnanswered ? repeats : repeats.filter((repeat) => !announced.has(repeat.participantId));
  for (const repeat of repeats) announced.add(repeat.participantId);
  if (named.length === 0) return { text: null, announced };
  const numbers = named.map((repeat) => `#${repeat.repeatOf}`).join(', ');
  const names = named.map((repeat) => repeat.name);
  const said =
    named.length === 1
      ? `${spokenList(names, 'and')} repeated its own answer ${numbers}, so it was not posted again.`
      : `${spokenList(names, 'and')} repeated their own answers (${numbers}), so they were not posted again.`;
  if (options.personUnanswered) return { text: `${said} Nobody had anything new to add: ask something new, \`!focus\` on one point, or \`!stop\`.`, announced };
  const rest = named.length === 1 ? 'It sits out the AI rounds until a person speaks.' : 'They sit out the AI rounds until a person speaks.';
  return { text: options.aiRounds ? `${said} ${rest}` : said, announced };
}

/**
 * A round's answers withheld as repeats, who answered, and whether a person's round got nothing but repeats, from its
 * kind, its speakers and their outcomes (in the same order).
 */
export function roundRepeats(
  kind: 'human' | 'ai',
  speakers: readonly { participant: ParticipantConfig }[],
  outcomes: readonly TurnOutcome[],
): { repeats: RoundRepeat[]; answeredIds: Set<string>; personUnanswered: boolean } {
  const repeats: RoundRepeat[] = [];
  const answeredIds = new Set<string>();
  speakers.forEach(({ participant }, index) => {
    const outcome = outcomes[index];
    if (outcome?.status === 'answered') answeredIds.add(participant.id);
    if (outcome?.status === 'withheld' && outcome.repeatOf !== undefined) {
      repeats.push({ participantId: participant.id, name: participant.name, repeatOf: outcome.repeatOf });
    }
  });
  return { repeats, answeredIds, personUnanswered: kind === 'human' && repeats.length > 0 && answeredIds.size === 0 };
}
