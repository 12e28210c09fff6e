/**
 * What must hold after any run of crashes and restarts, read from the database and the rooms as the console shows
 * them: every person's message stored once, every stored answer in its room exactly once, nothing half-written, no
 * work left behind.
 */
import { sql } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { Kysely } from 'kysely';

/** A person's message the run sent: its client id, and whether the app took it into a session (no reply of its own). */
export interface SentMessage {
  clientId: string;
  roomId: string;
  accepted: boolean;
}

/** A room as `GET /api/rooms/:id` shows it. */
export interface RoomView {
  roomId: string;
  sessionId: string | null;
  deliveries: { externalId: string; speaker: { kind: string; name: string }; content: string }[];
  previews: unknown[];
}

/** The problems found, each a line a person can follow up, and how many stored answers were checked in their rooms. */
export async function chaosProblems(
  db: Kysely<Database>,
  sent: SentMessage[],
  rooms: RoomView[],
  now: Date,
): Promise<{ problems: string[]; answersChecked: number }> {
  const deliveries = await deliveryProblems(db, rooms);
  return { problems: [...(await peopleProblems(db, sent)), ...deliveries.problems, ...(await jobProblems(db, now))], answersChecked: deliveries.checked };
}

async function peopleProblems(db: Kysely<Database>, sent: SentMessage[]): Promise<string[]> {
  const rows = await db.selectFrom('messages').select(['source_id']).where('speaker_kind', '=', 'human').execute();
  const stored = new Map<string, number>();
  for (const row of rows) if (row.source_id) stored.set(row.source_id, (stored.get(row.source_id) ?? 0) + 1);
  return sent.flatMap((message) => {
    const count = stored.get(`local:lcl-${message.clientId}`) ?? 0;
    if (count > 1) return [`a person's message (${message.clientId}) was stored ${count} times`];
    if (message.accepted && count === 0) return [`a person's message (${message.clientId}) was taken but never stored`];
    return [];
  });
}

async function deliveryProblems(db: Kysely<Database>, rooms: RoomView[]): Promise<{ problems: string[]; checked: number }> {
  const problems: string[] = [];
  let checked = 0;
  for (const room of rooms) {
    if (room.previews.length > 0) problems.push(`room ${room.roomId}: ${room.previews.length} preview(s) left half-written`);
    if (!room.sessionId) continue;
    const shown = new Map<string, number>();
    for (const delivery of room.deliveries) shown.set(delivery.externalId, (shown.get(delivery.externalId) ?? 0) + 1);
    const messages = await db
      .selectFrom('messages')
      .select(['number', 'speaker_name', 'delivery_status', 'external_ids'])
      .where('session_id', '=', room.sessionId)
      .where('speaker_kind', '!=', 'human')
      .where('deleted_at', 'is', null)
      .execute();
    for (const message of messages) {
      const label = `room ${room.roomId}: #${message.number} (${message.speaker_name})`;
      if (message.delivery_status === 'pending') problems.push(`${label} is still pending`);
      if (message.delivery_status !== 'delivered') continue;
      checked += 1;
      const ids = message.external_ids;
      if (ids.length === 0) problems.push(`${label} is marked delivered but names no posted message`);
      for (const id of ids) if ((shown.get(id) ?? 0) !== 1) problems.push(`${label} shows ${shown.get(id) ?? 0} times in the room (${id})`);
    }
  }
  return { problems, checked };
}

/**
 * Jobs left running, or pending well past their time, after a clean stop. A job of a queue (one session's Notion
 * writes run in order) whose head waits for its retry is waiting its turn, not stuck.
 */
export async function jobProblems(db: Kysely<Database>, now: Date): Promise<string[]> {
  const overdueBefore = new Date(now.getTime() - 30_000);
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'status', 'queue', 'id'])
    .where((where) => where.or([where('status', '=', 'running'), where.and([where('status', '=', 'pending'), where('run_at', '<', overdueBefore)])]))
    .execute();
  const queues = [...new Set(rows.flatMap((row) => (row.queue ? [row.queue] : [])))];
  const heads =
    queues.length === 0
      ? []
      : await db
          .selectFrom('jobs')
          .select(['queue', sql<number>`min(id)::int`.as('head')])
          .where('queue', 'in', queues)
          .where('status', 'in', ['pending', 'running'])
          .groupBy('queue')
          .execute();
  const waitingTurn = (row: (typeof rows)[number]) =>
    row.status === 'pending' &&
    row.queue !== null &&
    heads.some((head) => head.queue === row.queue && head.head !== row.id && !rows.some((other) => other.id === head.head));
  const counts = new Map<string, number>();
  for (const row of rows.filter((candidate) => !waitingTurn(candidate))) {
    const label = `${row.kind} job(s) left ${row.status === 'running' ? 'running' : 'overdue'}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${count} ${label} after a clean stop`);
}

/** Jobs that failed for good, by kind: not a broken invariant, but worth a look. */
export async function failedJobs(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'last_error', sql<number>`count(*)::int`.as('count')])
    .where('status', '=', 'failed')
    .groupBy(['kind', 'last_error'])
    .execute();
  return rows.map((row) => `${row.count} ${row.kind} job(s) failed: ${row.last_error ?? 'no error recorded'}`);
}

/**
 * Waits until no job of `kinds` is running or due within `horizonMs` (a later one waits out a long backoff), seen twice
 * in a row, a check every 5 s, for up to `maxMs`; true once so. The rooms go on meanwhile (their rounds keep other
 * jobs coming): only the work the checks read is waited for. A fixed wait checked a Notion row still held behind a
 * backoff as missing.
 */
export async function settled(
  db: Kysely<Database>,
  options: { kinds: readonly string[]; horizonMs: number; maxMs: number; sleep: (ms: number) => Promise<unknown> },
): Promise<boolean> {
  let quietChecks = 0;
  for (let waited = 0; waited <= options.maxMs; waited += 5_000) {
    const busy = await db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('kind', 'in', [...options.kinds])
      .where((eb) => eb.or([eb('status', '=', 'running'), eb.and([eb('status', '=', 'pending'), eb('run_at', '<', new Date(Date.now() + options.horizonMs))])]))
      .executeTakeFirstOrThrow()
      .catch(() => ({ count: 1 }));
    quietChecks = busy.count === 0 ? quietChecks + 1 : 0;
    if (quietChecks >= 2) return true;
    await options.sleep(5_000);
  }
  return false;
}
