/** What the room hears about its rounds: a participant failing, benched or back, and the round's repeated answers. */
import type { LimitsConfig } from '../../config/app-config.ts';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { RosterService } from '../sessions/roster-service.ts';
import type { Runtime } from './coordinator-runtime.ts';
import { restingAfterRound, type SeatedRound } from './round-seating.ts';
import { noticeAfterTurn, repeatsNotice, roundRepeats } from './turn-notices.ts';
import type { TurnOutcome } from './turn-outcome.ts';

/** What the notices need. */
export interface RoundNoticesOptions {
  delivery: Pick<DeliveryService, 'post'>;
  roster: Pick<RosterService, 'active'>;
  /** Keeps who rests and who was announced with the session, for the process that takes it over. */
  sessions: Pick<SessionsRepository, 'update'>;
  clock: Clock;
  settings: () => LimitsConfig;
}

/** Posts the coordinator's notices, keeping what was announced in the session's runtime. */
export class RoundNotices {
  constructor(private readonly options: RoundNoticesOptions) {}

  /** Tells the room when a participant first fails or stalls, is benched, or is back. */
  async afterTurn(session: Session, participant: ParticipantConfig, outcome: TurnOutcome, runtime: Runtime): Promise<void> {
    const before = runtime.announcedFailures.get(participant.id);
    const { text, announced } = noticeAfterTurn(participant, outcome, this.options.roster.active(session), before);
    if (announced) runtime.announcedFailures.set(participant.id, announced);
    else runtime.announcedFailures.delete(participant.id);
    if (text) await this.post(session, runtime, text);
  }

  /**
   * One notice for the round's answers withheld as repeats (see repeatsNotice), which replies to the round's people when
   * it is all they got; who repeated rests from the AI rounds (see restingAfterRound).
   */
  async afterRound(session: Session, round: SeatedRound & { humans: ChatMessage[] }, outcomes: TurnOutcome[], runtime: Runtime): Promise<void> {
    const { repeats, answeredIds, personUnanswered } = roundRepeats(round.kind, round.speakers, outcomes);
    const aiRounds = this.options.settings().maxAiRoundsWithoutHuman > 0;
    const { text, announced } = repeatsNotice(repeats, { announced: runtime.announcedRepeats, answeredIds, personUnanswered, aiRounds });
    const resting = restingAfterRound(round.kind, runtime.resting, { repeaterIds: repeats.map((repeat) => repeat.participantId), answeredIds });
    const changed = !sameMembers(announced, runtime.announcedRepeats) || !sameMembers(resting, runtime.resting);
    runtime.announcedRepeats = announced;
    runtime.resting = resting;
    // Written only when it changed: most rounds repeat nothing and cost no statement.
    if (changed) await this.options.sessions.update(session.id, { repeats: { resting: [...resting], announced: [...announced] } }, this.options.clock.now());
    // The reply is what those people got: a process that takes the session over does not ask the models again.
    if (text) await this.post(session, runtime, text, personUnanswered ? round.humans.slice(-5) : []);
  }

  /** A system notice, unless the session was stopped meanwhile (after a stop only the closing is posted). */
  async post(session: Session, runtime: Runtime, text: string, replyTo: ChatMessage[] = []): Promise<void> {
    if (!runtime.controller.signal.aborted) await this.options.delivery.post(session, { kind: 'system', name: 'Brainstorm' }, text, { replyTo });
  }
}

function sameMembers(left: ReadonlySet<string>, right: ReadonlySet<string>): boolean {
  return left.size === right.size && [...left].every((member) => right.has(member));
}
