/** Reads a session back from the shared database and counts what a rolling restart or a failover lost or doubled. */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

/** What happened to the people's messages of one session. */
export interface ConversationAudit {
  /** People's messages since the discussion began. */
  people: number;
  /** People's messages no participant answered, and stored messages never delivered. */
  lost: number;
  /** The first part of `lost`: people's messages no answer refers to. */
  unanswered: number;
  /** The second part of `lost`: stored messages (answers, notices) never delivered. */
  undelivered: number;
  /** Second answers by one participant to one person's message, and messages posted twice (same external id). */
  duplicated: number;
  /** Participant answers per person's message id. */
  answers: Map<number, string[]>;
}

/** Audits a session: every person's message answered, nothing delivered twice, nothing left undelivered. */
export async function auditConversation(db: Kysely<Database>, sessionId: string): Promise<ConversationAudit> {
  const session = await db.selectFrom('sessions').select(['started_at']).where('id', '=', sessionId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'speaker_kind', 'speaker_name', 'reply_to', 'delivery_status', 'external_ids', 'created_at'])
    .where('session_id', '=', sessionId)
    .orderBy('id')
    .execute();
  const since = session.started_at?.getTime() ?? 0;
  const people = rows.filter((row) => row.speaker_kind === 'human' && row.created_at.getTime() >= since);
  const answers = new Map<number, string[]>(people.map((row) => [Number(row.id), []]));
  for (const row of rows.filter((candidate) => candidate.speaker_kind === 'participant')) {
    for (const target of row.reply_to) answers.get(Number(target))?.push(row.speaker_name);
  }
  const unanswered = [...answers.values()].filter((speakers) => speakers.length === 0).length;
  const undelivered = rows.filter((row) => row.speaker_kind !== 'human' && row.delivery_status !== 'delivered' && row.delivery_status !== 'internal').length;
  const doubledAnswers = [...answers.values()].reduce((sum, speakers) => sum + speakers.length - new Set(speakers).size, 0);
  const externalIds = rows.flatMap((row) => row.external_ids);
  return {
    people: people.length,
    lost: unanswered + undelivered,
    unanswered,
    undelivered,
    duplicated: doubledAnswers + externalIds.length - new Set(externalIds).size,
    answers,
  };
}
