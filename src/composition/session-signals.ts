/** The session owner's notices carried by the database's signals (Postgres LISTEN/NOTIFY). */
import type { Logger } from 'pino';
import type { DatabaseSignals } from '../db/postgres-signals.ts';
import type { SessionSignals } from '../services/scale/session-ownership.ts';

/** The channel on which a process calls the owner of a session to look at it now (the payload: the session id). */
export const SESSION_OWNER_CHANNEL = 'brainstorm_session_owner';

/** `SessionSignals` over `signals`: a notice that fails to go is only a later pickup (the owner still polls). */
export function sessionSignals(signals: DatabaseSignals, logger: Logger): SessionSignals {
  return {
    callOwner: (sessionId) => {
      signals.notify(SESSION_OWNER_CHANNEL, sessionId).catch((error: unknown) => {
        logger.debug({ err: error, session: sessionId }, "could not call the session's owner; its next poll looks");
      });
    },
    onOwnerCalled: (onSession) => signals.listen(SESSION_OWNER_CHANNEL, onSession),
  };
}
