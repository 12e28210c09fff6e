import type { JobRegistry } from '../jobs/job-types.ts';
import type { Logger } from 'pino';
import { PLANNER_RUN_JOBS, PLANNER_TIMEOUT_JOB } from './planner-job-kinds.ts';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { ClaimedJob, JobsRepository } from '../../repositories/jobs-repository.ts';
import type { SessionChanges, SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { SessionEnder } from '../../core/service-ports.ts';
import { WRAP_UP_JOB } from '../wrap-up/wrap-up-job.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import { FINISHED_STATUSES, SESSION_TRANSITIONS, type Session, type SessionPlan, type SessionStatus } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import { describeLimit, effectiveParameters } from '../limits/limits-service.ts';
import type { EventBus } from '../../core/ports.ts';
import { activeMs, timeLimitDueAt } from '../../core/session-clock.ts';

/** Job kinds the lifecycle schedules. */
export const SESSION_TIMEOUT_JOB = 'session_timeout';
/** Jobs that stop mattering when a session ends (deliveries and documentation still run). */
const ABANDONED_ON_END = [...PLANNER_RUN_JOBS, PLANNER_TIMEOUT_JOB, SESSION_TIMEOUT_JOB];
/** The Planner's approval timeout job (scheduled by the planner flow, which re-checks it when it runs). */

/** The state machine of a session; every transition is a conditional update, so races resolve in the DB. */
export class SessionLifecycle implements SessionEnder {
  constructor(
    private readonly options: {
      sessions: SessionsRepository;
      jobs: JobsRepository;
      delivery: Pick<DeliveryService, 'post'>;
      clock: Clock;
      events: EventBus;
      logger: Logger;
      nudgeWorker: () => void;
      /** The admin bounds in force (read at each use, so `!config` applies at once). */
      bounds: () => LimitsConfig;
    },
  ) {}

  /** `start_session` approved: the plan is in force and the discussion starts. */
  async activate(sessionId: string, plan: SessionPlan): Promise<Session> {
    const now = this.options.clock.now();
    const changes = { status: 'active' as const, plan, startedAt: now, clockStartedAt: now, pausedAt: null };
    const session = await this.options.sessions.update(sessionId, changes, now, [...SESSION_TRANSITIONS.approve.from]);
    if (!session) throw new BrainstormError('wrong_state', 'This session is no longer waiting for approval.');
    await this.scheduleTimeout(session);
    this.publish(session);
    return session;
  }

  /** The Planner proposed a plan: the session waits for a person's approval (null when it is no longer planning). */
  async awaitApproval(sessionId: string, changes: Pick<SessionChanges, 'plan' | 'disabledParticipants'>): Promise<Session | null> {
    const { from, to } = SESSION_TRANSITIONS.propose;
    const session = await this.options.sessions.update(sessionId, { status: to, ...changes }, this.options.clock.now(), [...from]);
    if (session) this.publish(session);
    return session;
  }

  /** An approval found nothing to resume: back to planning, for a forced re-plan (null when it was not waiting). */
  async returnToPlanning(sessionId: string): Promise<Session | null> {
    const { from, to } = SESSION_TRANSITIONS.replan;
    const session = await this.options.sessions.update(sessionId, { status: to }, this.options.clock.now(), [...from]);
    if (session) this.publish(session);
    return session;
  }

  /** `!pause`: no new rounds; answers already being written finish; the time limit's clock stops. */
  async pause(sessionId: string): Promise<Session> {
    const now = this.options.clock.now();
    const session = await this.transition(SESSION_TRANSITIONS.pause, sessionId, 'Only an active discussion can be paused.', { pausedAt: now });
    await this.options.jobs.cancelPending(sessionId, [SESSION_TIMEOUT_JOB], now);
    this.options.events.publish({ type: 'session_paused', sessionId });
    return session;
  }

  /** `!continue`: back to active, the clock runs again from where it stopped, and the loop guard is reset. */
  async resume(sessionId: string): Promise<Session> {
    const now = this.options.clock.now();
    const before = await this.options.sessions.findById(sessionId);
    const clockStartedAt = before?.status === 'paused' && before.pausedAt ? new Date(now.getTime() - activeMs(before, now)) : undefined;
    const session = await this.transition(SESSION_TRANSITIONS.resume, sessionId, 'Only a paused (or waiting) discussion can be continued.', {
      aiRoundsSinceHuman: 0,
      ...(clockStartedAt && { clockStartedAt, pausedAt: null }),
    });
    await this.scheduleTimeout(session);
    this.options.events.publish({ type: 'session_resumed', sessionId });
    return session;
  }

  /** `!reset`: usage counters, elapsed time and the Moderator's check counter start again from zero. */
  async reset(sessionId: string): Promise<Session> {
    const now = this.options.clock.now();
    await this.options.sessions.resetUsage(sessionId, now);
    const current = await this.options.sessions.findById(sessionId);
    if (!current) throw new BrainstormError('not_found', 'No session here.');
    const moderationState = { ...current.moderationState, lastCheckAtMessage: 0 };
    const session = await this.options.sessions.update(
      sessionId,
      { clockStartedAt: now, pausedAt: current.status === 'paused' ? now : null, moderationState },
      now,
    );
    if (!session) throw new BrainstormError('not_found', 'No session here.');
    await this.scheduleTimeout(session);
    this.publish(session);
    return session;
  }

  /** Moves the time-limit job of every active session (after `CONVERSATION_TIMEOUT_MINUTES` changed). */
  async rescheduleTimeouts(): Promise<void> {
    for (const session of await this.options.sessions.listByStatus(['active'])) await this.scheduleTimeout(session);
    this.options.nudgeWorker();
  }

  /** Brings the approval timeout of every session still planning forward to `minutes` after its last change. */
  async expeditePlannerTimeouts(minutes: number): Promise<void> {
    const now = this.options.clock.now();
    for (const session of await this.options.sessions.listByStatus([...SESSION_TRANSITIONS.approve.from])) {
      await this.options.jobs.expedite(PLANNER_TIMEOUT_JOB, session.id, new Date(session.updatedAt.getTime() + minutes * 60_000), now);
    }
    this.options.nudgeWorker();
  }

  /** The session timeout is the lifecycle's job: it registers its handler. */
  registerJobs(worker: JobRegistry): void {
    worker.register(SESSION_TIMEOUT_JOB, (job) => this.handleTimeout(job));
  }

  /** The time-limit job: ends an active session whose clock ran out; a moved deadline postpones it. */
  async handleTimeout(job: ClaimedJob): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(String(job.payload.sessionId));
    if (!session || session.status !== 'active') return { status: 'done' };
    const now = this.options.clock.now();
    const dueAt = timeLimitDueAt(session, effectiveParameters(session, this.options.bounds()).timeoutMinutes, now);
    if (dueAt > now) return { status: 'postpone', afterMs: dueAt.getTime() - now.getTime() };
    await this.end(session.id, 'completed', describeLimit('time'));
    return { status: 'done' };
  }

  /**
   * Ends a session: `!stop`, a limit, a timeout, the Moderator, or a planning timeout. Stop always wins: the
   * status changes first, in-flight model calls are aborted, then the wrap-up runs as a durable job.
   */
  async end(sessionId: string, status: 'completed' | 'stopped' | 'cancelled', reason: string): Promise<void> {
    const now = this.options.clock.now();
    const before = await this.options.sessions.findById(sessionId);
    if (!before) return;
    const finalStatus = status !== 'cancelled' && before.status !== 'active' && before.status !== 'paused' ? 'cancelled' : status;
    const session = await this.options.sessions.update(sessionId, { status: finalStatus, endReason: reason, endedAt: now }, now, [
      ...SESSION_TRANSITIONS.end.from,
    ]);
    if (!session) return;
    // Heard at once by the coordinator: every turn in flight is cut before anything else happens.
    this.options.events.publish({ type: 'session_ended', sessionId });
    await this.options.jobs.cancelPending(sessionId, ABANDONED_ON_END, now);
    this.publish(session);
    if (finalStatus === 'cancelled') {
      await this.options.delivery.post(
        session,
        { kind: 'planner', name: 'Planner' },
        `This session was cancelled: ${reason}. Post a new topic to start again.`,
      );
      return;
    }
    await this.options.jobs.enqueue({ kind: WRAP_UP_JOB, sessionId, dedupeKey: sessionId, payload: { sessionId, reason }, runAt: now }, now);
    this.options.nudgeWorker();
  }

  /** Replaces the pending time-limit job of an active session with one at its current deadline. */
  private async scheduleTimeout(session: Session): Promise<void> {
    if (session.status !== 'active') return;
    const now = this.options.clock.now();
    const runAt = timeLimitDueAt(session, effectiveParameters(session, this.options.bounds()).timeoutMinutes, now);
    await this.options.jobs.cancelPending(session.id, [SESSION_TIMEOUT_JOB], now);
    await this.options.jobs.enqueue(
      { kind: SESSION_TIMEOUT_JOB, sessionId: session.id, dedupeKey: session.id, payload: { sessionId: session.id }, runAt },
      now,
    );
  }

  private async transition(
    { from, to }: { from: readonly SessionStatus[]; to: SessionStatus },
    sessionId: string,
    refusal: string,
    extra: SessionChanges = {},
  ): Promise<Session> {
    const session = await this.options.sessions.update(sessionId, { ...extra, status: to }, this.options.clock.now(), [...from]);
    if (!session) {
      const current = await this.options.sessions.findById(sessionId);
      if (current && FINISHED_STATUSES.includes(current.status)) throw new BrainstormError('wrong_state', `This session has ended (${current.status}).`);
      throw new BrainstormError('wrong_state', `${refusal} The session is ${current?.status.replace('_', ' ') ?? 'gone'}.`);
    }
    this.publish(session);
    return session;
  }

  private publish(session: Session): void {
    this.options.events.publish({ type: 'session', session });
  }
}
