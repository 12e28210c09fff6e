/** A turn runner for coordinator tests: it records each turn and ends it when, and how, the test says. */
import type { ParticipantConfig } from '../../src/config/roster.ts';
import type { Clock } from '../../src/core/clock.ts';
import type { ChatMessage, Session } from '../../src/core/domain.ts';
import type { MessagesRepository } from '../../src/repositories/messages-repository.ts';
import type { SessionsRepository } from '../../src/repositories/sessions-repository.ts';
import type { TurnControl } from '../../src/services/coordinator/turn-control.ts';
import type { TurnOutcome } from '../../src/services/coordinator/turn-outcome.ts';
import type { TurnRunner } from '../../src/services/coordinator/turn-runner.ts';
import { stub } from './service-doubles.ts';

/** One turn the coordinator started. */
export interface TurnCall {
  session: Session;
  participant: ParticipantConfig;
  answering: ChatMessage[];
  control: TurnControl;
  /** Settled once `finish` was called. */
  finished: boolean;
  /** Ends the turn with `outcome` (the coordinator sees the run resolve). */
  finish(outcome: TurnOutcome): void;
}

/** Records turns; each waits for the test (or `auto`) to end it. */
export class ScriptedTurns {
  readonly calls: TurnCall[] = [];
  /** When set, every turn ends at once with what it returns (e.g. `(call) => turns.answer(call)`). */
  auto: ((call: TurnCall) => Promise<TurnOutcome>) | null = null;

  constructor(
    private readonly repositories: { messages: MessagesRepository; sessions: SessionsRepository },
    private readonly clock: Clock,
  ) {}

  /** The double the coordinator is given. */
  runner(): TurnRunner {
    return stub<TurnRunner>('turns', {
      run: ({ session, participant, answering, control }) =>
        new Promise<TurnOutcome>((resolve) => {
          const call: TurnCall = {
            session,
            participant,
            answering,
            control,
            finished: false,
            finish: (outcome) => {
              call.finished = true;
              resolve(outcome);
            },
          };
          this.calls.push(call);
          if (this.auto) void this.auto(call).then(call.finish);
        }),
    });
  }

  /** Turns not finished yet. */
  open(): TurnCall[] {
    return this.calls.filter((call) => !call.finished);
  }

  /** Stores `call`'s participant's answer to what it was answering (counted against the session) and returns it. */
  async answer(call: TurnCall, text = `${call.participant.name} answers.`): Promise<TurnOutcome> {
    const now = this.clock.now();
    const { message } = await this.repositories.messages.insert(
      {
        sessionId: call.session.id,
        speaker: { kind: 'participant', name: call.participant.name, id: call.participant.id },
        role: 'assistant',
        text,
        replyTo: call.answering.slice(-5).map((entry) => entry.id),
        deliveryStatus: 'delivered',
      },
      now,
    );
    await this.repositories.sessions.addUsage(call.session.id, { messages: 1, tokens: 0, costUsd: 0 }, now);
    return { status: 'answered', message };
  }
}
