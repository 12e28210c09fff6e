import { withTrace } from '@openai/agents';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { Session } from '../../core/domain.ts';
import type { RosterService } from '../sessions/roster-service.ts';
import type { InFlightTurn, Runtime } from './coordinator-runtime.ts';
import type { RoundNotices } from './round-notices.ts';
import type { SeatedRound } from './round-seating.ts';
import { TurnControl, type TurnDeadlines } from './turn-control.ts';
import type { TurnOutcome } from './turn-outcome.ts';
import type { TurnRunner } from './turn-runner.ts';

/** What starting a round needs. */
export interface RoundStartDependencies {
  turns: Pick<TurnRunner, 'run'>;
  roster: Pick<RosterService, 'all'>;
  clock: Clock;
  logger: Logger;
  /** Each participant's deadlines for one answer (first token, whole answer); null for none. */
  deadlines: () => TurnDeadlines | null;
}

/** The round to start, in its session, with the session's runtime. */
export interface RoundToStart {
  session: Session;
  round: SeatedRound;
  runtime: Runtime;
}

/**
 * Starts every speaker's turn at once, each under its own control (deadlines, preemption, stop); one trace per round.
 * A turn never rejects: a failure is its outcome. Each turn is in the runtime while it runs.
 */
export function startRound(
  dependencies: RoundStartDependencies,
  notices: Pick<RoundNotices, 'afterTurn'>,
  { session, round, runtime }: RoundToStart,
): InFlightTurn[] {
  const deadlines = dependencies.deadlines();
  const turns = round.speakers.map((speaker) => {
    const control = new TurnControl(runtime.controller.signal, dependencies.clock, deadlines);
    let resolve: (outcome: TurnOutcome) => void = () => undefined;
    const done = new Promise<TurnOutcome>((settle) => (resolve = settle));
    const start = () =>
      dependencies.turns
        .run({ session, ...speaker, roster: dependencies.roster.all(), control, history: round.history })
        .then(async (outcome) => {
          await notices
            .afterTurn(session, speaker.participant, outcome, runtime)
            .catch((error: unknown) => dependencies.logger.warn({ err: error, session: session.id }, 'could not announce a turn'));
          return outcome;
        })
        .then(resolve, (error: unknown) => resolve({ status: 'failed', error }));
    const turn: InFlightTurn = { participantId: speaker.participant.id, control, done };
    runtime.turns.add(turn);
    const forget = () => void runtime.turns.delete(turn);
    void done.then(forget, forget);
    return { turn, start };
  });
  const title = round.kind === 'human' ? `Turn: answering ${round.trigger}` : 'Turn: AI round';
  withTrace(title, () => Promise.all(turns.map((entry) => entry.start())), {
    groupId: session.id,
    metadata: { sessionId: session.id, kind: round.kind },
  }).catch((error: unknown) => dependencies.logger.warn({ err: error, session: session.id }, 'could not trace a round'));
  return turns.map((entry) => entry.turn);
}
