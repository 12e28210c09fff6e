/**
 * The wrap-up: the durable job the lifecycle enqueues when a session ends. It spans several services, in an order
 * that matters: the answers cut by the end land first, then the ledger's last pass, the critique round, and the
 * Moderator's closing chain, which is the last word.
 */
import type { Logger } from 'pino';
import type { Session } from '../../core/domain.ts';
import type { ModerationPort } from '../../core/service-ports.ts';
import type { JobOutcome, JobRegistry } from '../jobs/job-types.ts';

/** The job kind (enqueued by the session lifecycle's `end`). */
export const WRAP_UP_JOB = 'wrap_up';

/** What the wrap-up runs, in order. */
export interface WrapUpSteps {
  sessions: { findById(sessionId: string): Promise<Session | null> };
  /** Resolves when the session's rounds have stopped (the coordinator). */
  rounds: { idle(sessionId: string): Promise<void> };
  ideas: { finalPass(sessionId: string): Promise<unknown> };
  critique: { beforeWrapUp(session: Session): Promise<unknown> };
  /** Stores the record and TLDR again, so a new critique round's section is in them. */
  documents: { refreshAppendix(sessionId: string): Promise<void> };
  moderation: Pick<ModerationPort, 'wrapUp'>;
  /** Hands the documents over as files where the room has no other way to them (after the closing). */
  handOver: (session: Session) => Promise<void>;
  /** Schedules what follows the session (the reminder of its open next steps). */
  followUp: (session: Session) => Promise<void>;
  logger: Logger;
}

/** Registers the wrap-up job's handler. */
export function registerWrapUpJob(worker: JobRegistry, steps: WrapUpSteps): void {
  worker.register(WRAP_UP_JOB, async (job) => runWrapUp(steps, String(job.payload.sessionId), String(job.payload.reason)));
}

async function runWrapUp(steps: WrapUpSteps, sessionId: string, reason: string): Promise<JobOutcome> {
  const session = await steps.sessions.findById(sessionId);
  // The answers cut by the end land (marked) before the closing, which is the last word.
  await steps.rounds.idle(sessionId);
  if (!session) return { status: 'done' };
  await steps.ideas.finalPass(session.id);
  if (await steps.critique.beforeWrapUp(session)) {
    await steps.documents
      .refreshAppendix(session.id)
      .catch((error: unknown) => steps.logger.warn({ err: error, session: session.id }, 'could not store the documents with the critique round'));
  }
  await steps.moderation.wrapUp(session, reason);
  await steps.handOver(session).catch((error: unknown) => steps.logger.warn({ err: error, session: session.id }, 'could not hand the documents over'));
  await steps.followUp(session).catch((error: unknown) => steps.logger.warn({ err: error, session: session.id }, 'could not schedule the follow-up'));
  return { status: 'done' };
}
