/** When the next TLDR pass runs: its job, on the session's TLDR queue. */
import { DOCUMENTATION_JOB_KINDS, type DocumentationDependencies } from './documentation-types.ts';
import { retryDeadline } from './document-delays.ts';

/** The queue a session's TLDR passes run on, one at a time. */
export const tldrQueue = (sessionId: string): string => `tldr:${sessionId}`;

/**
 * The next TLDR: now when there is none yet, else `TLDR_UPDATE_INTERVAL` after the last one. A TLDR already pending
 * is moved in when that is earlier (the interval was just shortened with `!config`), never later, unless it is
 * waiting out a failure's back-off. `now`: due at once (people edited the TLDR in Notion; the pass takes it up).
 */
export async function scheduleTldr(
  deps: Pick<DocumentationDependencies, 'clock' | 'documents' | 'jobs' | 'settings' | 'nudge'>,
  sessionId: string,
  options: { now?: boolean } = {},
): Promise<void> {
  const now = deps.clock.now();
  const last = await deps.documents.find(sessionId, 'tldr');
  const writtenAt = last ? Date.parse(String(last.metadata.writtenAt ?? '')) || last.updatedAt.getTime() : null;
  const due = writtenAt === null || options.now ? now.getTime() : Math.max(now.getTime(), writtenAt + deps.settings.tldrIntervalSeconds * 1000);
  const queued = await deps.jobs.enqueue(
    {
      kind: DOCUMENTATION_JOB_KINDS.tldr,
      payload: { sessionId },
      runAt: new Date(due),
      dedupeKey: sessionId,
      queue: tldrQueue(sessionId),
      sessionId,
      retryUntil: retryDeadline(deps),
    },
    now,
  );
  if (queued === null) await deps.jobs.expedite(DOCUMENTATION_JOB_KINDS.tldr, sessionId, new Date(due), now, { skipRetrying: true });
  if (due <= now.getTime()) deps.nudge?.();
}
