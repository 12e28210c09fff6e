/** The Notion outbox jobs: write a document's newest version, and create/update a session's database row. */
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import type { StoredDocument } from '../../repositories/documents-repository.ts';
import { NotionRequestError, NotionThrottledError } from '../../notion/notion-errors.ts';
import type { NotionGateway } from '../../notion/notion-gateway.ts';
import type { SessionRowValues } from '../../notion/session-row.ts';
import { backoffDelayMs } from '../jobs/backoff.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import { noteDelay, noteWritten, rewriteVanished } from './document-delays.ts';
import type { DocumentationDependencies } from './documentation-types.ts';
import { peoplesVersion } from './people-edits.ts';

/** Default cap of the backoff between Notion retries. */
export const DEFAULT_NOTION_MAX_BACKOFF_MS = 60_000;

/** The row values of a session as stored now, or null when the session is gone. */
export async function sessionRowValues(deps: Pick<DocumentationDependencies, 'sessions' | 'messages'>, sessionId: string): Promise<SessionRowValues | null> {
  const session = await deps.sessions.findById(sessionId);
  if (!session) return null;
  const speakers = await deps.messages.countBySpeaker(sessionId);
  return {
    topic: session.topic,
    status: session.status,
    conversationId: session.id,
    participants: speakers
      .filter((speaker) => speaker.kind === 'participant' || speaker.kind === 'human')
      .map((speaker) => speaker.speaker)
      .sort(),
    started: session.startedAt ?? session.createdAt,
    messages: speakers.reduce((total, speaker) => total + speaker.messages, 0),
    tokens: session.totalTokens,
    costUsd: session.totalCostUsd,
    threadUrl: session.roomUrl,
  };
}

/**
 * Maps a Notion failure to a job outcome, decided on the error's code: wait for the limiter, honour
 * Retry-After, back off (an outage, or an object that vanished and is recreated next time), or give up
 * (a refused request or a bad token will not mend by retrying).
 */
export function notionOutcome(error: unknown, job: ClaimedJob, maxBackoffMs: number): JobOutcome {
  if (error instanceof NotionThrottledError) return { status: 'postpone', afterMs: error.waitMs };
  if (!(error instanceof NotionRequestError)) throw error;
  const backoff = backoffDelayMs(job.retryCount + 1, { baseMs: 2000, maxMs: maxBackoffMs });
  const reason = `${error.notionCode}: ${error.message}`;
  if (error.retryable) return { status: 'retry', error: reason, afterMs: Math.max(error.retryAfterMs ?? 0, backoff) };
  if (error.kind === 'not_found') return { status: 'retry', error: reason, afterMs: backoff };
  return { status: 'failed', error: reason };
}

/** The outcome of a failed document job, after telling the room about the delay when it lasts. */
export async function documentFailure(deps: DocumentationDependencies, sessionId: string, job: ClaimedJob, error: unknown): Promise<JobOutcome> {
  const outcome = notionOutcome(error, job, deps.settings.notionMaxBackoffMs ?? DEFAULT_NOTION_MAX_BACKOFF_MS);
  if (outcome.status === 'retry') await noteDelay(deps, sessionId, job, error);
  return outcome;
}

/**
 * `notion_sync`: writes the newest version of a document; an older job finding it already synced does nothing. A
 * page a person edited in Notion since our last write is not replaced: `onPeoplesEdits` has the next pass take it up.
 */
export async function runNotionSync(
  deps: DocumentationDependencies,
  notion: NotionGateway,
  job: ClaimedJob,
  signal: AbortSignal,
  onPeoplesEdits: (document: StoredDocument) => Promise<void>,
): Promise<JobOutcome> {
  const sessionId = String(job.payload.sessionId);
  const kind = job.payload.kind === 'tldr' ? 'tldr' : 'record';
  const document = await deps.documents.find(sessionId, kind);
  if (!document || document.syncedVersion >= document.version) return { status: 'done' };
  const row = await sessionRowValues(deps, sessionId);
  if (!row) return { status: 'done' };
  try {
    if (await peoplesVersion(deps, notion, document, signal)) {
      await onPeoplesEdits(document);
      return { status: 'done' };
    }
    const pageId = await notion.writeDocument(sessionId, kind, document.content, row, signal);
    await deps.documents.markSynced(document.id, document.version, pageId, deps.clock.now());
  } catch (error) {
    return documentFailure(deps, sessionId, job, error);
  }
  await rewriteVanished(deps, notion, sessionId);
  await noteWritten(deps, notion, sessionId);
  return { status: 'done' };
}

/** `notion_session_row`: creates or updates the session's row in the "Brainstorm Sessions" database. */
export async function runNotionRow(deps: DocumentationDependencies, notion: NotionGateway, job: ClaimedJob, signal: AbortSignal): Promise<JobOutcome> {
  const sessionId = String(job.payload.sessionId);
  const row = await sessionRowValues(deps, sessionId);
  if (!row) return { status: 'done' };
  try {
    await notion.upsertSessionRow(sessionId, row, signal);
  } catch (error) {
    return notionOutcome(error, job, deps.settings.notionMaxBackoffMs ?? DEFAULT_NOTION_MAX_BACKOFF_MS);
  }
  // A row recreated after it vanished has no pages under it yet.
  await rewriteVanished(deps, notion, sessionId);
  return { status: 'done' };
}
