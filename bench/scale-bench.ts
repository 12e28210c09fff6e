/**
 * Scale-out figures with two real app processes on one Postgres (the local Postgres server, TEST_DATABASE_URL):
 * a rolling restart (start a second process, SIGTERM the first) and a failover (SIGKILL the owner of a session).
 */
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../src/db/create-database.ts';
import type { Database } from '../src/db/schema.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../tests/fakes/openrouter/fake-openrouter.ts';
import { clusterEnvironment, startClusterProcess, waitUntil, type ClusterProcess } from '../tests/support/app-cluster.ts';
import { waitForHealthy } from '../tests/support/browser.ts';
import { leaseHolderPid, say, startActiveSession, waitAnswered, type DrillSession } from '../tests/support/cluster-drill.ts';
import { auditConversation } from '../tests/support/conversation-audit.ts';
import { createThrowawayPostgres } from '../tests/support/databases.ts';
import { percentile, type BenchResult } from './bench-app.ts';

/** People's messages the rolling restart is measured over (some sent to the process being stopped). */
const ROLLING_MESSAGES = 6;
/** People's messages written through the process that does not own their session, for the handover figure. */
const HANDOVER_MESSAGES = 9;

async function member(fake: FakeOpenRouter, url: string, processes: ClusterProcess[], extra: Record<string, string> = {}): Promise<ClusterProcess> {
  const started = await startClusterProcess(clusterEnvironment(fake.url, url, { LOG_LEVEL: 'warn', ...extra }));
  processes.push(started);
  await waitForHealthy(started.url, 120_000);
  return started;
}

/** Runs both drills; the failover uses the default lease (SESSION_LEASE_SECONDS=15), as production does. */
export async function runScaleBench(): Promise<BenchResult[]> {
  const fake = await startFakeOpenRouter();
  const database = await createThrowawayPostgres();
  const handle = openDatabase({ kind: 'postgres', url: database.url });
  const processes: ClusterProcess[] = [];
  try {
    const lease = { SESSION_LEASE_SECONDS: '15' };
    const first = await member(fake, database.url, processes, lease);
    const rolling = await startActiveSession(handle.db, fake, first.url, 'Bench: a rolling restart');
    const second = await member(fake, database.url, processes, lease);
    const handover = await handoverTimes(handle.db, second.url, rolling);
    const sent: number[] = [];
    for (let index = 0; index < ROLLING_MESSAGES / 2; index += 1) sent.push(await say(handle.db, first.url, rolling, `Before the stop, message ${index + 1}`));
    const stopped = first.signal('SIGTERM');
    for (let index = ROLLING_MESSAGES / 2; index < ROLLING_MESSAGES; index += 1)
      sent.push(await say(handle.db, second.url, rolling, `During and after the stop, message ${index + 1}`));
    await stopped;
    for (const id of sent) await waitAnswered(handle.db, rolling, id, 3, 120_000).catch(() => undefined);
    const rollingAudit = await auditConversation(handle.db, rolling.sessionId);

    const third = await member(fake, database.url, processes, lease);
    const failover = await startActiveSession(handle.db, fake, second.url, 'Bench: a failover');
    const owner = (await leaseHolderPid(handle.db, failover.sessionId)) === third.pid ? third : second;
    const survivor = owner === third ? second : third;
    const killedAt = performance.now();
    await owner.signal('SIGKILL');
    const question = await say(handle.db, survivor.url, failover, 'Who answers now?');
    await waitAnswered(handle.db, failover, question, 3, 120_000);
    await waitUntil(async () => (await leaseHolderPid(handle.db, failover.sessionId)) === survivor.pid, 'the lease to move', 120_000);
    const takeoverSeconds = (performance.now() - killedAt) / 1000;
    const failoverAudit = await auditConversation(handle.db, failover.sessionId);
    return [
      { name: 'rolling_restart_lost_messages', value: rollingAudit.lost, unit: 'messages' },
      // The two kinds of loss apart: a person's message no answer refers to, an answer stored but never delivered.
      { name: 'rolling_restart_unanswered', value: rollingAudit.unanswered, unit: 'messages' },
      { name: 'rolling_restart_undelivered', value: rollingAudit.undelivered, unit: 'messages' },
      { name: 'rolling_restart_duplicated', value: rollingAudit.duplicated, unit: 'messages' },
      { name: 'handover_first_answer_ms_p50', value: Math.round(percentile(handover, 0.5)), unit: 'ms' },
      { name: 'handover_first_answer_ms_max', value: Math.round(Math.max(...handover)), unit: 'ms' },
      { name: 'failover_takeover_s', value: Math.round(takeoverSeconds * 10) / 10, unit: 's' },
      { name: 'failover_lost_messages', value: failoverAudit.lost, unit: 'messages' },
      { name: 'failover_duplicated', value: failoverAudit.duplicated, unit: 'messages' },
    ];
  } finally {
    await Promise.all(processes.map((member) => member.stop()));
    await handle.close();
    await fake.close();
    await database.drop();
  }
}

/**
 * handover_first_answer_ms: from a person's message stored by a process that does not own its session to the first
 * answer to it (the models answer at once): how long the owner takes to hear of it. Each waits for its answers.
 */
async function handoverTimes(db: Kysely<Database>, viaUrl: string, drill: DrillSession): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < HANDOVER_MESSAGES; index += 1) {
    const id = await say(db, viaUrl, drill, `Through the other process, message ${index + 1}`);
    await waitAnswered(db, drill, id, 3, 120_000);
    const { rows } = await sql<{ ms: number }>`
      select extract(epoch from (
        (select min(answer.created_at) from messages as answer
         where answer.session_id = person.session_id and answer.speaker_kind = 'participant' and answer.reply_to @> to_jsonb(person.id))
        - person.created_at)) * 1000 as ms
      from messages as person where person.id = ${id}`.execute(db);
    times.push(Number(rows[0]?.ms ?? Number.NaN));
  }
  return times;
}
