/**
 * The streaming previews a process left in its rooms when it died mid-answer: a half-written message ending in ▍
 * that no answer will ever replace. Users read it as the bot posting half an answer, so it is removed, once the
 * process that posted it is declared gone (at this process's start for a restart on the same machine, or when its
 * heartbeat goes stale). A preview whose answer was stored stays: its delivery turns it into the answer.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import { isPermanentFailure } from '../../core/errors.ts';
import type { LeftPreview, StreamPreviewsRepository } from '../../repositories/stream-previews-repository.ts';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { JobOutcome, JobRegistry } from '../jobs/job-types.ts';
import type { Transport } from '../../core/ports.ts';
import type { Session } from '../../core/domain.ts';
import type { TransportRegistry } from './transport-registry.ts';

/** The job that removes left previews soon after a start (the room transport may still be connecting). */
export const REMOVE_LEFT_PREVIEWS_JOB = 'remove_left_previews';

/** Most previews one sweep handles; the rest wait for the next. */
const SWEEP_BATCH = 100;
/** A preview row is kept this long (its answer long delivered), then forgotten whoever posted it. */
const KEEP_PREVIEW_ROWS_MS = 24 * 60 * 60_000;
/** How soon a sweep that could not reach a room tries again. */
const RETRY_MS = 5_000;

/** What the sweeper needs. */
export interface LeftPreviewsOptions {
  previews: Pick<StreamPreviewsRepository, 'leftByGoneInstances' | 'forget' | 'forgetOlderThan'>;
  jobs: Pick<JobsRepository, 'enqueueOnce'>;
  transports: TransportRegistry;
  clock: Clock;
  logger: Logger;
}

/** What one sweep did. */
export interface SweepResult {
  removed: number;
  /** Previews it could not remove now (their room unreachable): tried again later. */
  failed: number;
}

/** Removes the previews of dead processes whose answers never came. */
export class LeftPreviews {
  constructor(private readonly options: LeftPreviewsOptions) {}

  /** Registers the sweep's job. */
  registerJobs(registry: JobRegistry): void {
    registry.register(REMOVE_LEFT_PREVIEWS_JOB, () => this.runJob());
  }

  /** Queues a sweep due now, unless one is pending (at every start, after dead instances were reclaimed). */
  async schedule(): Promise<void> {
    const now = this.options.clock.now();
    await this.options.jobs.enqueueOnce({ kind: REMOVE_LEFT_PREVIEWS_JOB, payload: {}, runAt: now, dedupeKey: REMOVE_LEFT_PREVIEWS_JOB, maxRetries: 20 }, now);
  }

  /**
   * One sweep: each left preview whose answer never came is removed from its room, and its row forgotten at once (the
   * rows then say what the rooms still hold, also while the sweep goes on); rows long finished are forgotten.
   */
  async sweep(): Promise<SweepResult> {
    const { previews, transports, logger } = this.options;
    let failed = 0;
    let removed = 0;
    for (const preview of await previews.leftByGoneInstances(SWEEP_BATCH)) {
      const transport = transports.has(preview.transport) ? transports.get(preview.transport) : null;
      // A room of a transport this process lacks waits for a process that has it.
      if (!transport) continue;
      const outcome = await this.clear(preview, transport);
      if (outcome === 'failed') failed += 1;
      else await previews.forget([preview.externalId]);
      if (outcome === 'removed') removed += 1;
    }
    await previews.forgetOlderThan(new Date(this.options.clock.now().getTime() - KEEP_PREVIEW_ROWS_MS), 5_000);
    if (removed > 0) logger.info({ previews: removed }, 'removed the half-written answers a stopped process left in its rooms');
    return { removed, failed };
  }

  /** Takes one left preview out of its room: `kept` when its answer will replace it (or the room keeps none). */
  private async clear(preview: LeftPreview, transport: Transport): Promise<'removed' | 'kept' | 'gone' | 'failed'> {
    if (preview.answered || !transport.removePreview) return 'kept';
    try {
      await transport.removePreview(preview.roomId, preview.externalId);
      return 'removed';
    } catch (error) {
      this.options.logger.warn({ err: error, session: preview.sessionId }, 'could not remove a half-written answer a stopped process left');
      // A room that is gone for good (its thread deleted, the bot removed from the server) has nothing left to clean.
      return isPermanentFailure(error) ? 'gone' : 'failed';
    }
  }

  /**
   * Removes, in the background, the half-written answers of ours in a session's room that nobody writes: those a
   * process posted and could not record before it died (its database away), which `sweep` cannot know of. Run when
   * this process takes the session's lease, so no process of ours is writing there but this one.
   */
  sweepRoom(session: Pick<Session, 'id' | 'transport' | 'roomId'>): void {
    const { transports, logger } = this.options;
    const transport = transports.has(session.transport) ? transports.get(session.transport) : null;
    if (!transport?.removeStrayPreviews) return;
    transport.removeStrayPreviews(session.roomId).then(
      (removed) => {
        if (removed > 0) logger.info({ session: session.id, previews: removed }, 'removed half-written answers nobody had recorded from a session taken over');
      },
      (error: unknown) => logger.warn({ err: error, session: session.id }, 'could not read a room taken over back for half-written answers'),
    );
  }

  private async runJob(): Promise<JobOutcome> {
    const { failed } = await this.sweep();
    return failed > 0 ? { status: 'retry', error: `${failed} left previews could not be removed yet`, afterMs: RETRY_MS } : { status: 'done' };
  }
}
