import type { LimitsConfig } from '../../config/app-config.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { RecentHistory } from '../context/context-manager.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { RosterService } from '../sessions/roster-service.ts';
import type { Runtime } from './coordinator-runtime.ts';
import type { RecentHistorySource } from './recent-history.ts';
import { planRound, type RoundPlan } from './round-planning.ts';
import type { SpeakerHints } from './speaker-hints.ts';

/**
 * A planned round with the history it was planned on. `owing`: who a person's round would seat but who are still
 * writing an answer; they owe the person theirs, to give as soon as their turn ends.
 */
export type SeatedRound = RoundPlan & { history: RecentHistory; owing: ReadonlySet<string> };

/** What seating a round reads. */
export interface RoundSeatingDependencies {
  limits: LimitsService;
  roster: RosterService;
  hints: SpeakerHints;
  history: RecentHistorySource;
  settings: () => LimitsConfig;
}

/**
 * Who rests after a round: its repeaters, and those resting before unless they answered now. A person's round starts
 * afresh (it asked everyone, and a repeater it did not seat gets the next AI round's chance).
 */
export function restingAfterRound(
  kind: 'human' | 'ai',
  resting: ReadonlySet<string>,
  round: { repeaterIds: readonly string[]; answeredIds: ReadonlySet<string> },
): Set<string> {
  const kept = kind === 'human' ? [] : [...resting].filter((id) => !round.answeredIds.has(id));
  return new Set([...kept, ...round.repeaterIds]);
}

/**
 * Plans the next round among the participants free to speak (`only`: among these), within the seats the limits
 * leave (an AI round without those resting after a repeat); null when none is free. Those a person's round would seat but who are still writing are named in `owing`.
 */
export async function seatRound(
  dependencies: RoundSeatingDependencies,
  session: Session,
  runtime: Pick<Runtime, 'turns' | 'resting'>,
  humans: ChatMessage[],
  only?: ReadonlySet<string>,
): Promise<SeatedRound | null> {
  const settings = dependencies.settings();
  // Turns already cut (a person came first) are on their way out: they hold no seat and block nobody.
  const live = [...runtime.turns].filter((turn) => !turn.control.signal.aborted);
  const busy = new Set(live.map((turn) => turn.participantId));
  const seats = dependencies.limits.seatsLeft(session, live.length);
  const history = await dependencies.history.read(session.id);
  // A person's round asks everyone; an AI round leaves out who is still writing and who rests after a repeat.
  const asked = (participant: { id: string }) =>
    only ? only.has(participant.id) : humans.length > 0 || (!busy.has(participant.id) && !runtime.resting.has(participant.id));
  const planned = planRound({
    session,
    participants: dependencies.roster.active(session).filter(asked),
    history: history.messages,
    // Beyond the window, fairness needs how much each participant said in the whole session.
    spoken: history.spoken,
    humans,
    maxSpeakers: Math.min(settings.maxAiResponsesPerTurn, seats),
    batchWindowMs: settings.batchWindowSeconds * 1000,
    ...dependencies.hints.current(session.id),
  });
  const speakers = planned.speakers.filter((speaker) => !busy.has(speaker.participant.id));
  if (speakers.length === 0) return null;
  const owing = new Set(planned.speakers.filter((speaker) => busy.has(speaker.participant.id)).map((speaker) => speaker.participant.id));
  dependencies.hints.spend(session.id);
  return { ...planned, speakers, history, owing };
}
