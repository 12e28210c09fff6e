/** The session lifecycle on its own: real repositories over a PGlite clone, a recording room, the event bus. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRepositories, type Repositories } from '../../../../src/composition/build-repositories.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { SessionEvent } from '../../../../src/core/ports.ts';
import type { DatabaseHandle } from '../../../../src/db/create-database.ts';
import { createLogger } from '../../../../src/logging/logger.ts';
import { buildConfig } from '../../../../src/config/load-config.ts';
import { SessionLifecycle } from '../../../../src/services/sessions/session-lifecycle.ts';
import { WRAP_UP_JOB } from '../../../../src/services/wrap-up/wrap-up-job.ts';
import { openTestDatabase } from '../../../support/databases.ts';

let database: DatabaseHandle;
let repositories: Repositories;
let events: SessionEvent[];
let posted: string[];
let lifecycle: SessionLifecycle;
const clock = new ManualClock('2026-05-01T09:00:00Z');
const plan = { expandedTopic: 'Names for a tea shop', objectives: ['ten names'], parameters: {} } as never;

beforeEach(async () => {
  database = await openTestDatabase('pglite');
  repositories = buildRepositories(database);
  const bus = new InMemoryEventBus();
  events = [];
  bus.subscribe((event) => events.push(event));
  posted = [];
  lifecycle = new SessionLifecycle({
    sessions: repositories.sessions,
    jobs: repositories.jobs,
    delivery: {
      post: async (_session, _speaker, text) => {
        posted.push(text);
        return {} as never;
      },
    },
    clock,
    events: bus,
    logger: createLogger({ level: 'silent', secrets: [] }),
    nudgeWorker: () => undefined,
    bounds: () => buildConfig({}).limits,
  });
});

afterEach(async () => database.close());

async function newSession(status: 'planning' | 'awaiting_approval' = 'awaiting_approval') {
  return repositories.sessions.create(
    {
      id: `ses-${events.length}-${Math.round(clock.now().getTime() / 1000)}`,
      parentId: null,
      transport: 'memory',
      roomId: 'room-1',
      roomUrl: null,
      originChannelId: null,
      originMessageId: null,
      topic: 'Names for a tea shop',
      status,
      createdBy: { id: 'u1', name: 'Ada' },
    },
    clock.now(),
  );
}

const kinds = () => events.map((event) => (event.type === 'session' ? `session:${event.session.status}` : event.type));

describe('SessionLifecycle', () => {
  it('an approval activates the session and publishes it; a stop publishes session_ended before the wrap-up job is queued', async () => {
    const session = await newSession();
    await lifecycle.activate(session.id, plan);
    await lifecycle.end(session.id, 'stopped', 'stopped by Ada');
    expect(kinds()).toEqual(['session:active', 'session_ended', 'session:stopped']);
    const jobs = await repositories.jobs.listForSession(session.id);
    expect(jobs.filter((job) => job.kind === WRAP_UP_JOB)).toHaveLength(1);
  });

  it('ending twice is a no-op the second time: one event, one wrap-up', async () => {
    const session = await newSession();
    await lifecycle.activate(session.id, plan);
    await lifecycle.end(session.id, 'completed', 'time limit');
    await lifecycle.end(session.id, 'stopped', 'stopped by Ada');
    expect(kinds().filter((kind) => kind === 'session_ended')).toHaveLength(1);
    expect((await repositories.sessions.findById(session.id))?.status).toBe('completed');
  });

  it('a session that never started discussing ends as cancelled, with a note in the room and no wrap-up', async () => {
    const session = await newSession('planning');
    await lifecycle.end(session.id, 'completed', 'no answer within 30 minutes');
    expect((await repositories.sessions.findById(session.id))?.status).toBe('cancelled');
    expect(posted.join('\n')).toContain('cancelled');
    expect((await repositories.jobs.listForSession(session.id)).some((job) => job.kind === WRAP_UP_JOB)).toBe(false);
  });

  it('!pause publishes session_paused, !continue session_resumed and resets the loop guard; a pause outside a discussion is refused and changes nothing', async () => {
    const session = await newSession();
    await expect(lifecycle.pause(session.id)).rejects.toSatisfy((error) => BrainstormError.isInstance(error) && error.code === 'wrong_state');
    expect(events).toEqual([]);
    await lifecycle.activate(session.id, plan);
    await repositories.sessions.update(session.id, { aiRoundsSinceHuman: 4 }, clock.now());
    await lifecycle.pause(session.id);
    await clock.advance(60_000);
    const resumed = await lifecycle.resume(session.id);
    expect(kinds()).toEqual(['session:active', 'session:paused', 'session_paused', 'session:active', 'session_resumed']);
    expect(resumed.aiRoundsSinceHuman).toBe(0);
  });
});
