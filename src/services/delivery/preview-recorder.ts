/** Where a room's streaming previews are recorded, so a process that dies mid-answer does not leave them there. */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import { isDatabaseUnreachable, whenReachable } from '../../core/database-unreachable.ts';
import type { Session } from '../../core/domain.ts';
import type { StreamPreviewsRepository } from '../../repositories/stream-previews-repository.ts';
import type { PreviewRecord } from './stream-draft.ts';

/** The previews' repository, with this process's worker instance id. */
export interface PreviewRows {
  repository: Pick<StreamPreviewsRepository, 'remember' | 'forget'>;
  workerId: string;
}

/** Records each preview posted in `session`'s room, and forgets it once taken out. */
export function previewRecord(session: Session, previews: PreviewRows, options: { clock: Clock; logger: Logger }): PreviewRecord {
  const { clock, logger } = options;
  const row = { sessionId: session.id, transport: session.transport, roomId: session.roomId, workerId: previews.workerId };
  const warn = (what: string) => (error: unknown) => logger.warn({ err: error, session: session.id }, `could not ${what} a streaming preview`);
  // While the database is away the answer goes on; the row is written in the background once it is back, so a
  // process killed after the outage still has its half-written answers found and removed by the next start.
  const recorded = (what: string, write: () => Promise<void>) =>
    write().catch((error: unknown) => (isDatabaseUnreachable(error) ? void whenReachable(write, { clock }).catch(warn(what)) : warn(what)(error)));
  return {
    posted: (externalId) => recorded('record', () => previews.repository.remember({ ...row, externalId, postedAt: clock.now() })),
    removed: (externalId) => recorded('forget', () => previews.repository.forget([externalId])),
  };
}
