/**
 * One reminder of the next steps a session left open. A team agrees on actions, the thread goes quiet, and the
 * actions are forgotten: `NEXT_STEPS_REMINDER_DAYS` after the session ended, the Moderator posts once in its room
 * the steps still open (read back from Notion first, so boxes ticked there count), and how to tick them. Nothing is
 * posted when every step is done, the record has none, or the session was taken up again. A durable job, so a
 * restart in between changes nothing.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import { FINISHED_STATUSES, type Session, type Speaker } from '../../core/domain.ts';
import { doneButtons, nextStepLines, nextStepsIn } from '../../core/next-steps.ts';
import type { DocumentationPort, ReplyButton } from '../../core/ports.ts';
import type { NewJob } from '../../repositories/jobs-repository.ts';
import type { JobOutcome, JobRegistry } from '../jobs/job-types.ts';

/** The job kind. */
export const NEXT_STEPS_REMINDER_JOB = 'next_steps_reminder';

const MODERATOR: Speaker = { kind: 'moderator', name: 'Moderator' };

/** What the reminder needs. */
export interface NextStepsReminderOptions {
  sessions: { findById(sessionId: string): Promise<Session | null> };
  jobs: { enqueue(job: NewJob, now: Date): Promise<number | null> };
  documentation: Pick<DocumentationPort, 'refreshRecord'>;
  delivery: { post(session: Session, speaker: Speaker, text: string, options?: { buttons?: ReplyButton[] }): Promise<unknown> };
  clock: Clock;
  /** Days after the end; 0 sends none. */
  reminderDays: number;
  logger: Logger;
}

/** Schedules the reminder when a session ends, and posts it when it is due. */
export class NextStepsReminder {
  constructor(private readonly options: NextStepsReminderOptions) {}

  /** Registers the reminder's job handler. */
  registerJobs(registry: JobRegistry): void {
    registry.register(NEXT_STEPS_REMINDER_JOB, async (job) => this.remind(String(job.payload.sessionId)));
  }

  /** After the closing: the reminder, due `reminderDays` from now (once per session; none when switched off). */
  async schedule(session: Session): Promise<void> {
    if (this.options.reminderDays <= 0) return;
    const now = this.options.clock.now();
    const runAt = new Date(now.getTime() + this.options.reminderDays * 24 * 60 * 60_000);
    await this.options.jobs.enqueue(
      { kind: NEXT_STEPS_REMINDER_JOB, payload: { sessionId: session.id }, runAt, dedupeKey: session.id, sessionId: session.id },
      now,
    );
  }

  private async remind(sessionId: string): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(sessionId);
    // Taken up again (`!continue`): its next closing schedules a reminder of its own.
    if (!session || !FINISHED_STATUSES.includes(session.status)) return { status: 'done' };
    const steps = nextStepsIn((await this.options.documentation.refreshRecord(session.id)) ?? '');
    const open = steps.flatMap((step, index) => (step.done ? [] : [{ step, number: index + 1 }]));
    if (open.length === 0) return { status: 'done' };
    const lines = open.map(({ step, number }) => nextStepLines([step], number)).join('\n');
    const days = this.options.reminderDays;
    const text = [
      `**${open.length} of ${steps.length} next steps from this brainstorm ${open.length === 1 ? 'is' : 'are'} still open** (${days} day${days === 1 ? '' : 's'} on)`,
      lines,
      'Tick one with its button, `!done <number>` or in the Detailed record in Notion; `!steps` lists them all.',
    ].join('\n');
    await this.options.delivery.post(session, MODERATOR, text, { buttons: doneButtons(steps) });
    this.options.logger.info({ sessionId, open: open.length }, 'reminded the room of its open next steps');
    return { status: 'done' };
  }
}
