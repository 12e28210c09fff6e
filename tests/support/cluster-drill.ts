/** A brainstorm driven through the console API of cluster processes, read back from the shared database. */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { replies, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { postJson, waitUntil } from './app-cluster.ts';
import { auditConversation } from './conversation-audit.ts';
import { scriptedPlan } from './scripted-plans.ts';

/** A session started in the local channel of one process. */
export interface DrillSession {
  roomId: string;
  sessionId: string;
}

/** Starts a session at `url`, approves its plan, and waits for the participants' first answers. */
export async function startActiveSession(db: Kysely<Database>, fake: FakeOpenRouter, url: string, topic: string): Promise<DrillSession> {
  fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages: 500 })));
  const { roomId } = await postJson<{ roomId: string | null }>(`${url}/api/local/sessions`, { topic, name: 'Alice' });
  if (!roomId) throw new Error('no room opened');
  const status = async () => (await db.selectFrom('sessions').select(['id', 'status']).where('room_id', '=', roomId).executeTakeFirst()) ?? null;
  await waitUntil(async () => (await status())?.status === 'awaiting_approval', 'the plan');
  await postJson(`${url}/api/rooms/${encodeURIComponent(roomId)}/commands`, { command: 'approve', name: 'Alice' });
  const sessionId = (await status())?.id as string;
  await waitUntil(
    async () =>
      (await db.selectFrom('messages').select('id').where('session_id', '=', sessionId).where('speaker_kind', '=', 'participant').execute()).length >= 3,
    'the first answers',
  );
  return { roomId, sessionId };
}

/** A person writes in the room through the process at `url`; returns the stored message's id. */
export async function say(db: Kysely<Database>, url: string, drill: DrillSession, content: string, name = 'Bob'): Promise<number> {
  await postJson(`${url}/api/rooms/${encodeURIComponent(drill.roomId)}/messages`, { content, name });
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('session_id', '=', drill.sessionId)
    .where('speaker_kind', '=', 'human')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Waits until every participant answered message `messageId`, and everything said was delivered. */
export async function waitAnswered(db: Kysely<Database>, drill: DrillSession, messageId: number, participants = 3, timeoutMs = 90_000): Promise<number> {
  return waitUntil(
    async () => {
      const audit = await auditConversation(db, drill.sessionId);
      return (audit.answers.get(messageId)?.length ?? 0) >= participants && audit.lost === 0;
    },
    `answers to message ${messageId}`,
    timeoutMs,
  );
}

/** The pid of the process holding a session's lease (null when nobody holds it). */
export async function leaseHolderPid(db: Kysely<Database>, sessionId: string): Promise<number | null> {
  const row = await db
    .selectFrom('session_leases')
    .innerJoin('worker_instances', 'worker_instances.id', 'session_leases.owner_id')
    .select('worker_instances.pid')
    .where('session_leases.session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.pid ?? null;
}
