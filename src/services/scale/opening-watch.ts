/** Sessions adopted while their approval still writes the Moderator's opening: kicked only if it never comes. */
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import { openingState } from './unanswered-people.ts';

/** What the watch needs (the ownership keeper's own options fit): the session, its messages, the clock, its rounds. */
export interface OpeningWatchOptions {
  sessions: Pick<SessionsRepository, 'findById'>;
  messages: Pick<MessagesRepository, 'listRecent'>;
  clock: Clock;
  /** Starts the AI rounds of a session whose opening never came. */
  rounds: { kick(sessionId: string): void };
  /** Whether its rounds may start (false at the loop guard). */
  mayContinue: (session: Session) => boolean;
}

/**
 * The opening starts the rounds; a round kicked before it would be cut by it at once. A session adopted before its
 * opening is watched instead: dropped once anything is said, kicked once the grace is over (the approval died).
 */
export class OpeningWatch {
  private readonly waiting = new Set<string>();

  constructor(private readonly options: OpeningWatchOptions) {}

  /** True (and the session watched) when the session's opening is still being written. */
  defer(session: Session, recent: ChatMessage[]): boolean {
    if (openingState(session, recent, this.options.clock.now()) !== 'awaiting') return false;
    this.waiting.add(session.id);
    return true;
  }

  /** Drops the sessions whose opening came (it started their rounds); kicks those whose approval never posted one. */
  async check(holds: (sessionId: string) => boolean): Promise<void> {
    for (const sessionId of [...this.waiting]) {
      const session = await this.options.sessions.findById(sessionId);
      const state =
        session?.status === 'active' && holds(sessionId)
          ? openingState(session, await this.options.messages.listRecent(sessionId, 5), this.options.clock.now())
          : 'opened';
      if (state === 'awaiting') continue;
      this.waiting.delete(sessionId);
      if (state === 'overdue' && session && this.options.mayContinue(session)) this.options.rounds.kick(sessionId);
    }
  }
}
