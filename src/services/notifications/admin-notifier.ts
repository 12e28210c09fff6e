/** Admin notices: a log line always, and an ntfy POST when `NTFY_URL` is set. */
import type { Logger } from 'pino';
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import type { TerminalFailureListener } from '../jobs/job-types.ts';

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

/** A job worker listener that turns a job failing for good into an admin notice. */
export function createTerminalFailureNotifier(notifier: AdminNotifier): TerminalFailureListener {
  return async (job: ClaimedJob, error: string) => {
    const session = job.sessionId ? ` (session ${job.sessionId})` : '';
    await notifier.notify({
      title: `Brainstorm: ${job.kind} job failed for good`,
      message: `Job ${job.id} of kind ${job.kind}${session} failed after ${job.retryCount + 1} attempts: ${error.slice(0, 500)}. Nothing stored locally was lost; the next write of the same document retries it.`,
      tags: ['warning'],
    });
  };
}
