/** The session owner's notices carried by the database's signals (Postgres LISTEN/NOTIFY). */
import type { Logger } from 'pino';
import type { DatabaseSignals } from '../db/postgres-signals.ts';
import type { SessionSignals } from '../services/scale/session-ownership.ts';

/** The channel on which a process tells the others that it stored a person's message (the payload: the session id). */
export const SESSION_MESSAGES_CHANNEL = 'brainstorm_session_messages';

/** `SessionSignals` over `signals`: a notice that fails to go is only a later pickup (the owner still polls). */
export function sessionSignals(signals: DatabaseSignals, logger: Logger): SessionSignals {
  return {
    messageStored: (sessionId) => {
      signals.notify(SESSION_MESSAGES_CHANNEL, sessionId).catch((error: unknown) => {
        logger.debug({ err: error, session: sessionId }, "could not tell the session's owner of a message; its next poll finds it");
      });
    },
    onMessageStored: (onSession) => signals.listen(SESSION_MESSAGES_CHANNEL, onSession),
  };
}
