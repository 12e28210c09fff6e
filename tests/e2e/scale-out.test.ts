import { sql } from 'kysely';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/create-database.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { clusterEnvironment, startClusterProcess, waitUntil, type ClusterProcess } from '../support/app-cluster.ts';
import { waitForHealthy } from '../support/browser.ts';
import { leaseHolderPid, say, startActiveSession, waitAnswered } from '../support/cluster-drill.ts';
import { auditConversation } from '../support/conversation-audit.ts';
import { createThrowawayPostgres } from '../support/databases.ts';

let fake: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };
let handle: DatabaseHandle;
const processes: ClusterProcess[] = [];

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((member) => member.stop()));
});
afterAll(async () => {
  await handle?.close();
  await fake?.close();
  await database?.drop();
});

async function member(models: FakeOpenRouter = fake, extra: Record<string, string> = {}): Promise<ClusterProcess> {
  const started = await startClusterProcess(clusterEnvironment(models.url, database.url, extra));
  processes.push(started);
  await waitForHealthy(started, 120_000);
  handle ??= openDatabase({ kind: 'postgres', url: database.url });
  return started;
}

describe('two real processes on one Postgres', () => {
  it('rolling restart: a second process starts, the first stops; the session goes on, nothing lost or posted twice', async () => {
    const first = await member();
    const drill = await startActiveSession(handle.db, fake, first.url, 'Rolling restart: does the room go on?');
    expect(await leaseHolderPid(handle.db, drill.sessionId)).toBe(first.pid);

    const second = await member();
    // A person writes through the process that does not own the session: the owner answers.
    const viaSecond = await say(handle.db, second.url, drill, 'Bob writes through the second process');
    await waitAnswered(handle.db, drill, viaSecond);
    expect(await leaseHolderPid(handle.db, drill.sessionId)).toBe(first.pid);

    // A person writes to the first process just as it is told to stop: answered by the second.
    await withDiagnosis(
      () => explainConversation(drill.sessionId, [first, second]),
      async () => {
        const lastWords = await say(handle.db, first.url, drill, 'Bob writes just before the first process stops');
        expect(await first.signal('SIGTERM')).toBe(0);
        expect(first.output()).toMatch(/released session leases/);
        await waitAnswered(handle.db, drill, lastWords);
        const afterStop = await say(handle.db, second.url, drill, 'Bob writes after the first process stopped');
        await waitAnswered(handle.db, drill, afterStop);
      },
    );
    expect(await leaseHolderPid(handle.db, drill.sessionId)).toBe(second.pid);

    const audit = await auditConversation(handle.db, drill.sessionId);
    expect(audit.people).toBe(3);
    expect({ lost: audit.lost, duplicated: audit.duplicated }).toEqual({ lost: 0, duplicated: 0 });
  }, 300_000);

  it("a person writing through the other process is answered once by each participant, though the owner's rounds read the message before its pass hands it over", async () => {
    // Models that take 60 ms and a guard of 12 AI rounds: the owner seats a round every few dozen ms while its pass
    // looks for messages stored elsewhere once a second, so a round reads the person's message first, as a busy room does.
    const slowModels = await startFakeOpenRouter({ latencyMs: 60 });
    try {
      const busyRoom = { MAX_AI_ROUNDS_WITHOUT_HUMAN: '12' };
      const [owner, other] = await Promise.all([member(slowModels, busyRoom), member(slowModels, busyRoom)]);
      const drill = await startActiveSession(handle.db, slowModels, owner.url, 'Busy room: who answers Bob?');
      await waitUntil(async () => (await leaseHolderPid(handle.db, drill.sessionId)) !== null, 'a process to hold the session');
      const viaOther = (await leaseHolderPid(handle.db, drill.sessionId)) === owner.pid ? other : owner;
      // Each process hears the others' notices (its /metrics says so once its listening connection is up).
      for (const running of [owner, other]) {
        await waitUntil(async () => (await (await fetch(`${running.url}/metrics`)).text()).includes('brainstorm_notices_listening 1\n'), 'the notices heard');
      }
      const question = await say(handle.db, viaOther.url, drill, 'Bob writes through the process that does not hold the room');
      await waitAnswered(handle.db, drill, question);
      // The guard's notice, and everything said before it, delivered (a row stored a moment ago is still on its way).
      await waitUntil(
        async () => (await waitingNotices(drill.sessionId)) > 0 && (await auditConversation(handle.db, drill.sessionId)).undelivered === 0,
        'the AI rounds to reach the guard, everything delivered',
        120_000,
      );
      const audit = await auditConversation(handle.db, drill.sessionId);
      expect({ lost: audit.lost, duplicated: audit.duplicated, answers: audit.answers.get(question)?.length }).toEqual({ lost: 0, duplicated: 0, answers: 3 });
    } finally {
      await Promise.all(processes.splice(0).map((running) => running.stop()));
      await slowModels.close();
    }
  }, 300_000);

  it('failover: the owner is killed; the other process takes its session over and answers who spoke', async () => {
    const first = await member();
    const second = await member();
    const drill = await startActiveSession(handle.db, fake, first.url, 'Failover: who picks the room up?');
    let holder: number | null = null;
    await waitUntil(async () => (holder = await leaseHolderPid(handle.db, drill.sessionId)) !== null, 'a process to hold the session');
    const owner = holder === first.pid ? first : second;
    const survivor = owner === first ? second : first;
    expect(owner.pid).toBe(holder);
    const explain = () => explainFailover(drill.sessionId, owner, survivor);

    await withDiagnosis(explain, async () => {
      // The owner is killed in the middle of answering a person who wrote to it.
      for (const participant of ['Claude', 'ChatGPT', 'Grok']) fake.script({ participant }, replies.hang());
      const midTurn = await say(handle.db, owner.url, drill, 'Bob writes to the owner just before it dies');
      await waitUntil(
        async () => fake.pending({ participant: 'Grok' }) + fake.pending({ participant: 'Claude' }) + fake.pending({ participant: 'ChatGPT' }) === 0,
        'the owner to start answering',
      );
      // Its turn's model calls are stored, waiting on the models, when it dies: the three of this turn, not an earlier
      // call whose end the owner had not written yet.
      await waitUntil(async () => (await openGenerations(drill.sessionId, owner.pid, midTurn)) >= 3, 'the turn in flight to be traced');
      expect(await leaseHolderPid(handle.db, drill.sessionId)).toBe(owner.pid);
      expect(await owner.signal('SIGKILL')).toBeNull();
      const question = await say(handle.db, survivor.url, drill, 'Bob writes while the owner is dead');
      await waitAnswered(handle.db, drill, midTurn);
      await waitAnswered(handle.db, drill, question);
      await waitUntil(async () => (await leaseHolderPid(handle.db, drill.sessionId)) === survivor.pid, 'the lease to move');

      const audit = await auditConversation(handle.db, drill.sessionId);
      expect({ lost: audit.lost, duplicated: audit.duplicated }).toEqual({ lost: 0, duplicated: 0 });
      // The trace viewer does not show the dead process's turn as running for ever: it was cut short when it died.
      // Only the dead process's spans: the survivor's own are written open when they start and closed by a later flush.
      await waitUntil(async () => (await openGenerations(drill.sessionId, owner.pid)) === 0, 'the dead turn to be closed');
      const cut = await handle.db
        .selectFrom('spans')
        .select('id')
        .where('session_id', '=', drill.sessionId)
        .where(sql<boolean>`error->'data'->>'reason' = 'process_stopped'`)
        .execute();
      expect(cut.length).toBeGreaterThanOrEqual(3);
    });
  }, 300_000);
});

/** The session's generation spans still open, of the process with `pid`, started after message `afterMessageId` was stored when given. */
async function openGenerations(sessionId: string, pid: number, afterMessageId?: number): Promise<number> {
  let query = handle.db
    .selectFrom('spans')
    .innerJoin('traces', 'traces.id', 'spans.trace_id')
    .innerJoin('worker_instances', 'worker_instances.id', 'traces.worker_id')
    .select('spans.id')
    .where('spans.session_id', '=', sessionId)
    .where('spans.type', '=', 'generation')
    .where('spans.ended_at', 'is', null)
    .where('worker_instances.pid', '=', pid);
  if (afterMessageId !== undefined) {
    // The SDK stamps spans to the millisecond.
    const stored = sql<Date>`(SELECT date_trunc('milliseconds', created_at) FROM messages WHERE id = ${afterMessageId})`;
    query = query.where('spans.started_at', '>=', stored);
  }
  return (await query.execute()).length;
}

/** Runs `steps`; when they fail, prints what the database and both processes say about the failover first. */
async function withDiagnosis(explain: () => Promise<string>, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    console.error(await explain().catch((failure: unknown) => `(no diagnosis: ${String(failure)})`));
    throw error;
  }
}

/** The lease, the session's open generations with their traces and instances, and each process's log about ownership. */
async function explainFailover(sessionId: string, owner: ClusterProcess, survivor: ClusterProcess): Promise<string> {
  const open = await handle.db
    .selectFrom('spans')
    .innerJoin('traces', 'traces.id', 'spans.trace_id')
    .leftJoin('worker_instances', 'worker_instances.id', 'traces.worker_id')
    .select([
      'spans.id',
      'spans.name',
      'spans.started_at',
      'traces.name as trace',
      'traces.ended_at as trace_ended',
      'worker_instances.pid',
      'worker_instances.stopped_at',
    ])
    .where('spans.session_id', '=', sessionId)
    .where('spans.type', '=', 'generation')
    .where('spans.ended_at', 'is', null)
    .execute();
  const instances = await handle.db.selectFrom('worker_instances').select(['id', 'pid', 'heartbeat_at', 'stopped_at']).execute();
  const ownership = (output: string) =>
    output
      .split('\n')
      .filter((line) => /lease|gone|reclaim|closed the traces|took/.test(line))
      .slice(-20)
      .join('\n');
  return [
    `owner ${owner.pid}, survivor ${survivor.pid}, lease held by ${await leaseHolderPid(handle.db, sessionId)}`,
    `open generations: ${JSON.stringify(open)}`,
    `instances: ${JSON.stringify(instances)}`,
    `owner's log:\n${ownership(owner.output())}`,
    `survivor's log:\n${ownership(survivor.output())}`,
  ].join('\n');
}

/** The session's messages (who, answering what, delivered or not), what the audit counts lost, and each process's warnings. */
async function explainConversation(sessionId: string, members: ClusterProcess[]): Promise<string> {
  const rows = await handle.db
    .selectFrom('messages')
    .select(['id', 'speaker_name', 'reply_to', 'delivery_status'])
    .where('session_id', '=', sessionId)
    .orderBy('id')
    .execute();
  const audit = await auditConversation(handle.db, sessionId);
  const warnings = (output: string) =>
    output
      .split('\n')
      .filter((line) => /"level":(40|50)/.test(line))
      .slice(-15)
      .join('\n');
  return [
    `audit: unanswered ${audit.unanswered}, undelivered ${audit.undelivered}, duplicated ${audit.duplicated}`,
    `messages: ${JSON.stringify(rows.map((row) => [row.id, row.speaker_name, row.reply_to, row.delivery_status]))}`,
    ...members.map((member) => `process ${member.pid} warnings:\n${warnings(member.output())}`),
  ].join('\n');
}

/** The room's notices that the participants wait for a person (the loop guard reached). */
async function waitingNotices(sessionId: string): Promise<number> {
  const rows = await handle.db
    .selectFrom('messages')
    .select('id')
    .where('session_id', '=', sessionId)
    .where(sql<boolean>`content->>'content' like 'The participants are waiting for a person%'`)
    .execute();
  return rows.length;
}
