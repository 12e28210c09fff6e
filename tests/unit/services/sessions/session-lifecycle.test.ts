import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { Session, SessionStatus } from '../../../../src/core/domain.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { Database } from '../../../../src/db/schema.ts';
import { JobsRepository, type NewJob } from '../../../../src/repositories/jobs-repository.ts';
import type { DeliveryService } from '../../../../src/services/delivery/delivery-service.ts';
import { SESSION_TIMEOUT_JOB, SessionLifecycle } from '../../../../src/services/sessions/session-lifecycle.ts';
import { WRAP_UP_JOB } from '../../../../src/services/wrap-up/wrap-up-job.ts';
import { scriptedPlan } from '../../../support/scripted-plans.ts';
import { limitsConfig, openRepositories, quietLogger, storeSession, stub, type TestRepositories } from '../../../support/service-doubles.ts';

/** The jobs repository, writing each enqueue into the log the bus also writes to (to tell their order). */
class RecordingJobs extends JobsRepository {
  constructor(
    db: Kysely<Database>,
    private readonly log: string[],
  ) {
    super(db);
  }

  override async enqueue(job: NewJob, now: Date): Promise<number | null> {
    this.log.push(`enqueue ${job.kind}`);
    return super.enqueue(job, now);
  }
}

const opened: TestRepositories[] = [];

afterEach(async () => {
  for (const repositories of opened.splice(0)) await repositories.handle.close();
});

async function lifecycleFixture(status: SessionStatus) {
  const log: string[] = [];
  const clock = new ManualClock();
  const repositories = await openRepositories((handle) => new RecordingJobs(handle.db, log));
  opened.push(repositories);
  const events = new InMemoryEventBus();
  const published: Session[] = [];
  events.subscribe((event) => {
    if (event.type === 'session') {
      published.push(event.session);
      log.push(`session ${event.session.status}`);
    } else if (event.type !== 'message' && event.type !== 'trace') log.push(event.type);
  });
  const posts: { speaker: string; text: string }[] = [];
  const delivery = stub<DeliveryService>('delivery', {
    post: async (session, speaker, text) => {
      posts.push({ speaker: speaker.name, text });
      const { message } = await repositories.messages.insert({ sessionId: session.id, speaker, role: 'system', text, deliveryStatus: 'pending' }, clock.now());
      return message;
    },
  });
  let nudges = 0;
  const lifecycle = new SessionLifecycle({
    sessions: repositories.sessions,
    jobs: repositories.jobs,
    delivery,
    clock,
    events,
    logger: quietLogger(),
    nudgeWorker: () => (nudges += 1),
    bounds: () => limitsConfig({ timeoutMinutes: 60 }),
  });
  const session = await storeSession(repositories.sessions, clock, { status });
  const pending = async (kind: string) => (await repositories.jobs.listForSession(session.id)).filter((job) => job.kind === kind && job.status === 'pending');
  return { log, clock, repositories, lifecycle, session, published, posts, pending, nudges: () => nudges };
}

async function refusal(work: Promise<unknown>): Promise<BrainstormError> {
  const error = await work.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!BrainstormError.isInstance(error)) throw new Error(`expected a BrainstormError, got ${String(error)}`);
  return error;
}

describe('SessionLifecycle transitions', () => {
  it('activates, pauses and resumes, publishing each state, and keeps paused time off the clock', async () => {
    const { lifecycle, session, clock, log, published, pending } = await lifecycleFixture('awaiting_approval');
    const started = clock.now();
    await lifecycle.activate(session.id, scriptedPlan({ timeoutMinutes: 30 }));
    expect(published.at(-1)).toMatchObject({ id: session.id, status: 'active', startedAt: started });
    expect((await pending(SESSION_TIMEOUT_JOB)).map((job) => new Date(job.run_at).getTime())).toEqual([started.getTime() + 30 * 60_000]);

    await clock.advance(10 * 60_000);
    const paused = await lifecycle.pause(session.id);
    expect(paused).toMatchObject({ status: 'paused', pausedAt: clock.now() });
    expect(published.at(-1)?.status).toBe('paused');
    expect(await pending(SESSION_TIMEOUT_JOB)).toEqual([]);

    await clock.advance(5 * 60_000);
    log.length = 0;
    const resumed = await lifecycle.resume(session.id);
    expect(log).toEqual(['session active', `enqueue ${SESSION_TIMEOUT_JOB}`, 'session_resumed']);
    // Ten minutes ran before the pause: the clock restarts as if it had started ten minutes ago.
    expect(resumed).toMatchObject({ status: 'active', pausedAt: null, aiRoundsSinceHuman: 0 });
    expect(resumed.clockStartedAt?.getTime()).toBe(clock.now().getTime() - 10 * 60_000);
    expect((await pending(SESSION_TIMEOUT_JOB)).map((job) => new Date(job.run_at).getTime())).toEqual([clock.now().getTime() + 20 * 60_000]);
  });

  it('refuses a pause from a wrong state with wrong_state, changing nothing', async () => {
    const { lifecycle, session, repositories, published } = await lifecycleFixture('paused');
    const error = await refusal(lifecycle.pause(session.id));
    expect(error.code).toBe('wrong_state');
    expect(error.message).toContain('Only an active discussion can be paused');
    expect((await repositories.sessions.findById(session.id))?.status).toBe('paused');
    expect(published).toEqual([]);
  });

  it('refuses to resume an ended session, saying it has ended', async () => {
    const { lifecycle, session, log } = await lifecycleFixture('completed');
    const error = await refusal(lifecycle.resume(session.id));
    expect(error.code).toBe('wrong_state');
    expect(error.message).toContain('has ended (completed)');
    expect(log).toEqual([]);
  });
});

describe('SessionLifecycle.end', () => {
  it('publishes session_ended before it enqueues the wrap-up, and drops the pending time limit', async () => {
    const { lifecycle, session, clock, log, repositories, pending, nudges } = await lifecycleFixture('awaiting_approval');
    await lifecycle.activate(session.id, scriptedPlan());
    expect(await pending(SESSION_TIMEOUT_JOB)).toHaveLength(1);
    log.length = 0;

    await lifecycle.end(session.id, 'stopped', 'stopped by Alice');

    expect(log).toEqual(['session_ended', 'session stopped', `enqueue ${WRAP_UP_JOB}`]);
    expect(await repositories.sessions.findById(session.id)).toMatchObject({ status: 'stopped', endReason: 'stopped by Alice', endedAt: clock.now() });
    const wrapUps = await pending(WRAP_UP_JOB);
    expect(wrapUps.map((job) => job.payload)).toEqual([{ sessionId: session.id, reason: 'stopped by Alice' }]);
    expect(await pending(SESSION_TIMEOUT_JOB)).toEqual([]);
    expect(nudges()).toBe(1);
  });

  it('does nothing when a session is ended twice', async () => {
    const { lifecycle, session, log, repositories, pending, nudges } = await lifecycleFixture('active');
    await lifecycle.end(session.id, 'completed', 'the message limit was reached');
    const after = [...log];
    await lifecycle.end(session.id, 'stopped', 'stopped by Alice');
    expect(log).toEqual(after);
    expect(await repositories.sessions.findById(session.id)).toMatchObject({ status: 'completed', endReason: 'the message limit was reached' });
    expect(await pending(WRAP_UP_JOB)).toHaveLength(1);
    expect(nudges()).toBe(1);
  });

  it('ends a session still planning as cancelled, telling the room, with no wrap-up', async () => {
    const { lifecycle, session, log, repositories, posts, pending } = await lifecycleFixture('planning');
    await lifecycle.end(session.id, 'completed', 'nobody approved the plan');
    expect((await repositories.sessions.findById(session.id))?.status).toBe('cancelled');
    expect(log).toEqual(['session_ended', 'session cancelled']);
    expect(posts).toEqual([{ speaker: 'Planner', text: 'This session was cancelled: nobody approved the plan. Post a new topic to start again.' }]);
    expect(await pending(WRAP_UP_JOB)).toEqual([]);
  });

  it('ends a paused session with the status asked for', async () => {
    const { lifecycle, session, repositories, pending } = await lifecycleFixture('paused');
    await lifecycle.end(session.id, 'completed', 'the time limit was reached');
    expect((await repositories.sessions.findById(session.id))?.status).toBe('completed');
    expect(await pending(WRAP_UP_JOB)).toHaveLength(1);
  });
});
