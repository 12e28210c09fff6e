/**
 * Document jobs ride out Notion outages: they retry for a window of hours (not a count of attempts), the room
 * is told once that its documents are delayed and once that they are written, and pages that vanished in
 * Notion are written again.
 */
import { NotionRequestError } from '../../notion/notion-errors.ts';
import type { NotionGateway } from '../../notion/notion-gateway.ts';
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import { DOCUMENTATION_JOB_KINDS, type DocumentationDependencies } from './documentation-types.ts';

/** Default of `NOTION_RETRY_WINDOW_HOURS`. */
export const DEFAULT_NOTION_RETRY_WINDOW_MS = 24 * 60 * 60_000;

/** The failed attempt after which the room hears of a delay (one failure may be a blip). */
const NOTICE_AFTER_ATTEMPT = 2;

const DOCUMENT_KINDS = ['record', 'tldr'] as const;

const delayedFlag = (sessionId: string): string => `documents_delayed:${sessionId}`;

/** Until when a document job of a session enqueued now keeps retrying. */
export function retryDeadline(deps: Pick<DocumentationDependencies, 'clock' | 'settings'>): Date {
  return new Date(deps.clock.now().getTime() + (deps.settings.notionRetryWindowMs ?? DEFAULT_NOTION_RETRY_WINDOW_MS));
}

/** Enqueues a Notion job in the session's queue (an outage catches up in the order things happened). */
export async function enqueueNotionJob(
  deps: DocumentationDependencies,
  kind: string,
  sessionId: string,
  payload: Record<string, unknown>,
  dedupeKey: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.jobs.enqueue(
    {
      kind,
      payload,
      runAt: now,
      dedupeKey,
      queue: `notion:${sessionId}`,
      sessionId,
      retryUntil: retryDeadline(deps),
      ...(deps.settings.notionMaxRetries ? { maxRetries: deps.settings.notionMaxRetries } : {}),
    },
    now,
  );
  deps.nudge?.();
}

function hoursText(deps: Pick<DocumentationDependencies, 'settings'>): string {
  const hours = (deps.settings.notionRetryWindowMs ?? DEFAULT_NOTION_RETRY_WINDOW_MS) / 3_600_000;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(1)} hour${hours === 1 ? '' : 's'}`;
}

async function safely(deps: Pick<DocumentationDependencies, 'logger'>, what: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, what);
  }
}

/** After a failed attempt of a document job: tells the room once that its documents are delayed. */
export async function noteDelay(deps: DocumentationDependencies, sessionId: string, job: ClaimedJob, error: unknown): Promise<void> {
  // A rate limit passes within seconds; the local limiter's waits are not failures at all.
  if (!(error instanceof NotionRequestError) || error.kind === 'rate_limited') return;
  if (job.retryCount + 1 < NOTICE_AFTER_ATTEMPT || !deps.flags || !deps.notice) return;
  const { flags, notice } = deps;
  await safely(deps, 'could not tell the room its documents are delayed', async () => {
    if (!(await flags.claim(delayedFlag(sessionId)))) return;
    await notice(
      sessionId,
      `Notion is not answering, so this session's documents (the detailed record and the TLDR) are delayed. Nothing is lost: they are kept here and will be written to Notion as soon as it answers again (retrying for up to ${hoursText(deps)}).`,
    );
  });
}

/** After a document reached Notion: when every document of the session is there, ends a delay the room was told of. */
export async function noteWritten(deps: DocumentationDependencies, notion: NotionGateway, sessionId: string): Promise<void> {
  if (!deps.flags || !deps.notice) return;
  const { flags, notice } = deps;
  await safely(deps, 'could not tell the room its documents are written', async () => {
    for (const kind of DOCUMENT_KINDS) {
      const document = await deps.documents.find(sessionId, kind);
      if (document && document.syncedVersion < document.version) return;
    }
    if (!(await flags.release(delayedFlag(sessionId)))) return;
    const url = await notion.pageUrl(sessionId, 'row');
    await notice(sessionId, `Notion is answering again: this session's documents are written there now${url ? ` (${url})` : ''}.`);
  });
}

/**
 * Documents Notion no longer holds (their page vanished with a deleted or trashed row, or was deleted itself)
 * are marked unsynced and written again.
 */
export async function rewriteVanished(deps: DocumentationDependencies, notion: NotionGateway, sessionId: string): Promise<void> {
  for (const kind of DOCUMENT_KINDS) {
    const document = await deps.documents.find(sessionId, kind);
    if (!document || document.syncedVersion === 0 || (await notion.documentId(sessionId, kind))) continue;
    deps.logger.warn({ sessionId, kind }, 'a session document vanished from Notion; writing it again');
    await deps.documents.resetSynced(document.id, deps.clock.now());
    await enqueueNotionJob(deps, DOCUMENTATION_JOB_KINDS.notionSync, sessionId, { sessionId, kind }, `${sessionId}:${kind}`);
  }
}
