/** The session owner's notices: sent by the leases repository, heard through the database's signals (Postgres). */
import type { Logger } from 'pino';
import type { DatabaseSignals } from '../db/postgres-signals.ts';
import { SESSION_OWNER_CHANNEL, type SessionLeasesRepository } from '../repositories/session-leases-repository.ts';
import type { SessionSignals } from '../services/scale/session-ownership.ts';

/** `SessionSignals` over the leases and `signals`: a notice that fails to go is only a later pickup (the owner still polls). */
export function sessionSignals(leases: Pick<SessionLeasesRepository, 'callOwner'>, signals: DatabaseSignals, logger: Logger): SessionSignals {
  return {
    callOwner: (sessionId) => {
      leases.callOwner(sessionId).catch((error: unknown) => {
        logger.debug({ err: error, session: sessionId }, "could not call the session's owner; its next poll looks");
      });
    },
    onOwnerCalled: (onSession) => signals.listen(SESSION_OWNER_CHANNEL, onSession),
  };
}
