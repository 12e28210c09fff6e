import type { Logger } from 'pino';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../clock.ts';
import type { Coordinator, SessionEnder } from '../coordinator/coordinator.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import { FINISHED_STATUSES, type Session, type SessionPlan, type SessionStatus } from '../domain.ts';
import { BrainstormError } from '../errors.ts';
import type { EventBus } from '../ports.ts';

/** Job kinds the lifecycle schedules. */
export const SESSION_TIMEOUT_JOB = 'session_timeout';
export const WRAP_UP_JOB = 'wrap_up';
/** Jobs that stop mattering when a session ends (deliveries and documentation still run). */
const ABANDONED_ON_END = ['planner_step', 'planner_resume', 'planner_timeout', SESSION_TIMEOUT_JOB];

/** Statuses a session can be stopped from. */
const LIVE: SessionStatus[] = ['planning', 'awaiting_approval', 'active', 'paused'];

/** The state machine of a session; every transition is a conditional update, so races resolve in the DB. */
export class SessionLifecycle implements SessionEnder {
  private coordinator: Coordinator | null = null;

  constructor(
    private readonly options: {
      sessions: SessionsRepository;
      jobs: JobsRepository;
      delivery: DeliveryService;
      clock: Clock;
      events: EventBus;
      logger: Logger;
      nudgeWorker: () => void;
    },
  ) {}

  /** Connects the coordinator (built after the lifecycle, which it needs to end sessions). */
  attach(coordinator: Coordinator): void {
    this.coordinator = coordinator;
  }

  /** `start_session` approved: the plan is in force and the discussion starts. */
  async activate(sessionId: string, plan: SessionPlan): Promise<Session> {
    const now = this.options.clock.now();
    const session = await this.options.sessions.update(sessionId, { status: 'active', plan, startedAt: now }, now, ['awaiting_approval', 'planning']);
    if (!session) throw new BrainstormError('wrong_state', 'This session is no longer waiting for approval.');
    await this.options.jobs.enqueue(
      { kind: SESSION_TIMEOUT_JOB, sessionId, dedupeKey: sessionId, payload: { sessionId }, runAt: new Date(now.getTime() + plan.parameters.timeoutMinutes * 60_000) },
      now,
    );
    this.publish(session);
    return session;
  }

  /** `!pause`: no new rounds; answers already being written finish. */
  async pause(sessionId: string): Promise<Session> {
    return this.transition(sessionId, 'paused', ['active'], 'Only an active discussion can be paused.');
  }

  /** `!continue`: back to active, and the loop guard is reset. */
  async resume(sessionId: string): Promise<Session> {
    const session = await this.transition(sessionId, 'active', ['active', 'paused'], 'Only a paused (or waiting) discussion can be continued.');
    await this.options.sessions.update(sessionId, { aiRoundsSinceHuman: 0 }, this.options.clock.now());
    this.coordinator?.kick(sessionId);
    return session;
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
    const session = await this.options.sessions.update(sessionId, { status: finalStatus, endReason: reason, endedAt: now }, now, LIVE);
    if (!session) return;
    this.coordinator?.abort(sessionId);
    await this.options.jobs.cancelPending(sessionId, ABANDONED_ON_END, now);
    this.publish(session);
    if (finalStatus === 'cancelled') {
      await this.options.delivery.post(session, { kind: 'planner', name: 'Planner' }, `This session was cancelled: ${reason}. Post a new topic to start again.`);
      return;
    }
    await this.options.jobs.enqueue({ kind: WRAP_UP_JOB, sessionId, dedupeKey: sessionId, payload: { sessionId, reason }, runAt: now }, now);
    this.options.nudgeWorker();
  }

  private async transition(sessionId: string, to: SessionStatus, from: SessionStatus[], refusal: string): Promise<Session> {
    const session = await this.options.sessions.update(sessionId, { status: to }, this.options.clock.now(), from);
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
