import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { TracesRepository, type SpanRecord } from '../../../src/repositories/traces-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { cutReasonOf } from '../../../src/core/turn-scope.ts';
import { JobWorker } from '../../../src/services/jobs/job-worker.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const logger = createLogger({ level: 'silent', secrets: [] });
const DEAD_PID = 4242;
const start = new Date('2026-03-01T10:00:00.000Z');
const at = (milliseconds: number) => new Date(start.getTime() + milliseconds);

function span(id: string, traceId: string, startedAt: Date, endedAt: Date | null): SpanRecord {
  return {
    ...{ id, traceId, parentId: null, sessionId: 'ses_1', type: 'generation', name: 'model call', startedAt, endedAt },
    ...{ data: {}, error: null, model: 'x-ai/grok-3', inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: null, messageId: null },
  };
}

describe.each(ENGINES)('traces a killed process left open, on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;
  let traces: TracesRepository;
  let clock: ManualClock;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
    traces = new TracesRepository(handle.db);
    clock = new ManualClock(start);
  });
  afterEach(async () => handle.close());

  /** A turn's trace as a worker writes it while the turn runs: one call answered, one still waiting for its model. */
  async function turnInFlight(traceId: string, workerId: string): Promise<void> {
    await traces.upsertTraces([
      { id: traceId, sessionId: 'ses_1', name: 'Turn: AI round', groupId: 'ses_1', metadata: {}, startedAt: start, endedAt: null, workerId },
    ]);
    await traces.upsertSpans([span(`${traceId}_done`, traceId, at(5), at(900)), span(`${traceId}_waiting`, traceId, at(10), null)]);
  }

  function worker(workerId: string, pid: number): JobWorker {
    return new JobWorker({ workerId, jobs, clock, logger, instance: { host: 'box-1', pid, isProcessAlive: (candidate) => candidate !== DEAD_PID } });
  }

  it('closes them as cut short when the restarted process starts, at the last moment they were seen working', async () => {
    const doomed = worker('worker-dead', DEAD_PID);
    await doomed.runDue();
    await turnInFlight('trace_killed', 'worker-dead');
    // Still streaming at its next heartbeat, then killed.
    await clock.advance(6_000);
    await doomed.runDue([]);
    await clock.advance(3_000);

    await worker('worker-new', 5151).runDue();

    const [summary] = await traces.listTraces({ sessionId: 'ses_1' });
    expect(summary?.endedAt).toEqual(at(6_000));
    expect(summary?.errorCount).toBe(0);
    const spans = new Map(((await traces.getTrace('trace_killed'))?.spans ?? []).map((stored) => [stored.id, stored]));
    expect(spans.get('trace_killed_waiting')?.endedAt).toEqual(at(6_000));
    expect(cutReasonOf(spans.get('trace_killed_waiting')?.error)).toBe('process_stopped');
    expect(spans.get('trace_killed_done')?.error).toBeNull();
  });

  it('leaves the open traces of a live process alone, and a paused process that comes back writes their real end', async () => {
    const alive = worker('worker-alive', 77);
    await alive.runDue();
    await turnInFlight('trace_live', 'worker-alive');
    await worker('worker-other', 5151).runDue();
    expect((await traces.listTraces({ sessionId: 'ses_1' }))[0]?.endedAt).toBeNull();

    await clock.advance(60_000);
    const third = worker('worker-third', 5152);
    await third.runDue();
    // A process just started judges heartbeats stale only after two beats of its own: the database may have just come
    // back, and every heartbeat be stale until the live processes beat again (WorkerInstanceKeeper).
    await clock.advance(10_000);
    await third.runDue();
    expect(cutReasonOf(((await traces.getTrace('trace_live'))?.spans ?? []).find((stored) => stored.id === 'trace_live_waiting')?.error)).toBe(
      'process_stopped',
    );

    await traces.upsertSpans([span('trace_live_waiting', 'trace_live', at(10), at(70_000))]);
    const waiting = ((await traces.getTrace('trace_live'))?.spans ?? []).find((stored) => stored.id === 'trace_live_waiting');
    expect([waiting?.endedAt, waiting?.error]).toEqual([at(70_000), null]);
  });
});
