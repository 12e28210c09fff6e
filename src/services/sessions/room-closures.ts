/**
 * Ends the sessions of a room that can no longer hold a discussion: its thread was deleted or locked by a moderator,
 * or the channel it was opened from was deleted. Nobody can read or answer there any more, so going on would spend
 * the budget on a room nobody sees; ending it as `!stop` does keeps the record (the wrap-up still writes it).
 */
import type { Logger } from 'pino';
import { LIVE_STATUSES, type Session } from '../../core/domain.ts';
import type { RoomClosure } from '../../core/ports.ts';
import type { SessionEnder } from '../../core/service-ports.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';

/** What ending a closed room's sessions needs. */
export interface RoomClosuresOptions {
  sessions: Pick<SessionsRepository, 'findByRoom' | 'listByStatus'>;
  ender: SessionEnder;
  logger: Logger;
}

/** Finds the live sessions a closure takes with it and ends them. */
export class RoomClosures {
  constructor(private readonly options: RoomClosuresOptions) {}

  /** Ends every live session the closure reaches; returns their ids (none when the room held no live session). */
  async close(closure: RoomClosure): Promise<string[]> {
    const reached = await this.reached(closure);
    for (const session of reached) {
      this.options.logger.info({ session: session.id, room: session.roomId, reason: closure.reason }, 'the room closed; ending its session');
      await this.options.ender.end(session.id, 'stopped', closure.reason);
    }
    return reached.map((session) => session.id);
  }

  private async reached(closure: RoomClosure): Promise<Session[]> {
    if (closure.scope === 'room') {
      const session = await this.options.sessions.findByRoom(closure.transport, closure.channelId);
      return session && LIVE_STATUSES.includes(session.status) ? [session] : [];
    }
    // A deleted channel takes its threads with it: every live session opened from it, or held in it, ends.
    const live = await this.options.sessions.listByStatus([...LIVE_STATUSES]);
    return live.filter(
      (session) => session.transport === closure.transport && (session.roomId === closure.channelId || session.originChannelId === closure.channelId),
    );
  }
}
