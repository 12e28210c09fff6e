/**
 * Notices between processes about sessions (the owner's, `!refresh`): sent by repositories, heard through the database's
 * signals (Postgres).
 */
import type { Logger } from 'pino';
import type { DatabaseSignals } from '../db/postgres-signals.ts';
import { SESSION_OWNER_CHANNEL, type SessionLeasesRepository } from '../repositories/session-leases-repository.ts';
import { RECORD_REFRESH_CHANNEL, type DocumentsRepository } from '../repositories/documents-repository.ts';
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

/**
 * `!refresh` across processes: the process that handles it tells the others, and the owner of the session forces its
 * next round's prompts as the handling process would (a flag in memory, lost when the command reached another process).
 * A notice names its sender, which does not act on its own.
 */
export function recordRefreshSignals(documents: Pick<DocumentsRepository, 'announceRefresh'>, signals: DatabaseSignals, processId: string, logger: Logger) {
  return {
    announce: (sessionId: string): void => {
      documents.announceRefresh(JSON.stringify({ from: processId, sessionId })).catch((error: unknown) => {
        logger.warn({ err: error, session: sessionId }, 'could not tell the other processes of a !refresh');
      });
    },
    onRefresh: (refresh: (sessionId: string) => void): (() => void) =>
      signals.listen(RECORD_REFRESH_CHANNEL, (payload) => {
        const notice = refreshNotice(payload);
        if (notice && notice.from !== processId) refresh(notice.sessionId);
      }),
  };
}

/** A `!refresh` notice's sender and session, or null for a payload that is not one. */
function refreshNotice(payload: string): { from: string; sessionId: string } | null {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { from, sessionId } = parsed as Record<string, unknown>;
    return typeof from === 'string' && typeof sessionId === 'string' ? { from, sessionId } : null;
  } catch {
    return null;
  }
}
