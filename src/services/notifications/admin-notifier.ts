/** Admin notices: a log line always, and an ntfy POST when `NTFY_URL` is set. */
import type { Logger } from 'pino';
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import type { TerminalFailureListener } from '../jobs/job-types.ts';
import { clipText } from '../../core/text-clip.ts';

/** A notice for the people running the bot. */
export interface AdminNotice {
  title: string;
  message: string;
  /** ntfy priority 1-5 (default 4: high). */
  priority?: number;
  tags?: string[];
}

/** Sends admin notices. */
export interface AdminNotifier {
  notify(notice: AdminNotice): Promise<void>;
}

/** Options of the ntfy notifier. */
export interface AdminNotifierOptions {
  ntfyUrl: string | undefined;
  logger: Logger;
  fetch?: typeof globalThis.fetch;
}

/** Logs every notice and POSTs it to ntfy (title and priority as headers); a failing ntfy is only logged. */
export function createAdminNotifier(options: AdminNotifierOptions): AdminNotifier {
  const send = options.fetch ?? globalThis.fetch;
  return {
    async notify(notice) {
      options.logger.error({ notice: notice.title }, notice.message);
      if (!options.ntfyUrl) return;
      try {
        const response = await send(options.ntfyUrl, {
          method: 'POST',
          body: notice.message,
          headers: { Title: notice.title, Priority: String(notice.priority ?? 4), ...(notice.tags?.length ? { Tags: notice.tags.join(',') } : {}) },
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) options.logger.warn({ status: response.status }, 'ntfy refused the admin notice');
      } catch (error) {
        options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not reach ntfy');
      }
    },
  };
}

/** What a job failing for good means, by job kind: what was lost or is late, and what brings it back. */
const JOB_MEANINGS: Record<string, string> = {
  deliver_message: 'One message did not reach its room. It is kept in the transcript (web console) but people in the room did not see it.',
  notion_sync:
    "A session document (Scribe record or TLDR) did not reach Notion within NOTION_RETRY_WINDOW_HOURS. Nothing is lost: the full document is in the database and under DATA_DIR/docs; the session's next document write tries Notion again.",
  notion_session_row:
    "The session's row in the Notion database was not created or updated. Its documents are kept locally; the session's next change tries the row again.",
  scribe: 'One scheduled Scribe pass did not run. The record is as it was; the next message in the session schedules another pass.',
  tldr: 'The TLDR was not refreshed (it reads the record from Notion, which did not answer within the retry window). The record is intact; the next Scribe pass schedules a new TLDR.',
  planner_step: 'The Planner did not answer this session. It stays in planning until someone posts again or the planning timeout cancels it.',
  planner_resume: 'An approved plan did not start the discussion. The session stays awaiting approval; approving again (!start) retries.',
  planner_timeout: 'The planning timeout did not run, so a session left unanswered in planning was not cancelled; !stop ends it.',
  session_timeout: "The session's time limit did not end it; the other limits still apply, and !stop ends it.",
  wrap_up: 'The wrap-up (assessment, final record, summary and closing post) did not finish. The transcript is intact; !summary shows the latest TLDR.',
};

/** The admin notice of a job that failed for good: names the job and says what that means for it. */
export function terminalFailureNotice(job: ClaimedJob, error: string): AdminNotice {
  const session = job.sessionId ? ` (session ${job.sessionId})` : '';
  const meaning = JOB_MEANINGS[job.kind] ?? 'No retry is left for this job; its last error is in the web console.';
  return {
    title: `Brainstorm: ${job.kind} job failed for good`,
    message: `Job ${job.id} (${job.kind})${session} failed after ${job.retryCount + 1} attempts: ${clipText(error, 500)}. ${meaning}`,
    tags: ['warning'],
  };
}

/** A job worker listener that turns a job failing for good into an admin notice. */
export function createTerminalFailureNotifier(notifier: AdminNotifier): TerminalFailureListener {
  return async (job: ClaimedJob, error: string) => notifier.notify(terminalFailureNotice(job, error));
}
