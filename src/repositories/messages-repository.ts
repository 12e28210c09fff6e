import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { toJson, type Database, type MessageJsonRow, type MessageRow, type SessionJsonRow } from '../db/schema.ts';
import type { ChatMessage, DeliveryStatus, Session, SpeakerKind } from '../core/domain.ts';
import type { DeliveredMessage } from '../core/ports.ts';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { claimParameters, claimQuery, successorClaimInput, toClaimedJob, type ClaimedJob, type ClaimInput, type SuccessorClaim } from './job-claims.ts';
import { changesSince, recentAtHorizon, recentMessagesQuery, type MessageChanges, type RecentMessagesRead } from './message-changes.ts';
import { MessageNumbering } from './message-numbering.ts';
import { insertCountingTurn, insertNumbered, insertWithEffects, type MessageEffects } from './message-inserts.ts';
import { jsonRowToSession } from './sessions-repository.ts';
import { jsonRowToMessage, toMessage, type NewMessage } from './message-rows.ts';

export type { MessageEffects } from './message-inserts.ts';
export type { NewMessage } from './message-rows.ts';

/**
 * A message and the messages it replies to: read by every delivery, so prepared once (see PreparedStatement). One
 * `id = any(array)` keeps it an index lookup; `id = $1 or id in (subquery)` read the whole table for every delivery.
 */
const WITH_REPLY_TARGETS = new PreparedStatement(
  'message with reply targets',
  (db: Kysely<Database>, id: number) =>
    db
      .selectFrom('messages')
      .selectAll()
      .where(
        'id',
        '=',
        sql<number>`any(array[${id}::bigint] || array(select (jsonb_array_elements_text(replying.reply_to))::bigint from messages as replying where replying.id = ${id}))`,
      ),
  (id) => [id, id],
);

/** What marking a delivery done binds. */
interface DeliveredInput {
  id: number;
  job: Pick<ClaimedJob, 'id' | 'runId'>;
  now: Date;
  /** Every chunk's external id, the last included (the transport reports the last one here, not one by one). */
  externalIds: string[];
  url: string | null;
}

/** The message marked delivered, its job done and its run finished (common table expressions of one statement). */
function finishDelivery(db: Kysely<Database>, { id, job, now, externalIds, url }: DeliveredInput) {
  return db
    .with('delivered', (creator) =>
      creator
        .updateTable('messages')
        .set({ delivery_status: 'delivered', external_ids: toJson(externalIds), external_url: sql`coalesce(external_url, ${url})` })
        .where('id', '=', id)
        .returning('id'),
    )
    .with('finished', (creator) =>
      creator.updateTable('jobs').set({ status: 'done', finished_at: now, updated_at: now, locked_until: null }).where('id', '=', job.id).returning('id'),
    );
}

function finishDeliveryParameters({ id, job, now, externalIds, url }: DeliveredInput): unknown[] {
  return ['delivered', toJson(externalIds), url, id, 'done', now, now, null, job.id];
}

/** The end of every delivery: prepared once (see PreparedStatement). */
const MARK_DELIVERED = new PreparedStatement(
  'mark a message delivered and its job done',
  (db: Kysely<Database>, input: DeliveredInput) =>
    finishDelivery(db, input).updateTable('job_runs').set({ finished_at: input.now, outcome: 'succeeded' }).where('id', '=', input.job.runId),
  (input: DeliveredInput) => [...finishDeliveryParameters(input), input.now, 'succeeded', input.job.runId],
);

/** A delivery's end that claims the next job of its queue too. */
interface DeliveredAndClaimInput extends DeliveredInput {
  claim: ClaimInput;
}

/** The end of a delivery with more of its room's queue to run: the next job is claimed by the same statement. */
const MARK_DELIVERED_AND_CLAIM = new PreparedStatement(
  'mark a message delivered, its job done, and claim the next of its queue',
  (db: Kysely<Database>, input: DeliveredAndClaimInput) =>
    claimQuery(
      finishDelivery(db, input).with('finished_run', (creator) =>
        creator.updateTable('job_runs').set({ finished_at: input.now, outcome: 'succeeded' }).where('id', '=', input.job.runId).returning('id'),
      ),
      input.claim,
    ),
  (input: DeliveredAndClaimInput) => [...finishDeliveryParameters(input), input.now, 'succeeded', input.job.runId, ...claimParameters(input.claim)],
);

/** How the repository reads many messages at once. */
export interface MessagesRepositoryOptions {
  /**
   * `json`: as one `json_agg` value. Embedded PGlite parses every field of every row in JavaScript (about 1 µs each:
   * 5 ms for the 200 messages a round reads, 2.4 ms as one JSON value); pg parses rows faster than one large JSON
   * value, so a Postgres server keeps `rows` (the default).
   */
  manyRowsAs?: 'rows' | 'json';
}

/** Messages of sessions, ordered by id. */
export class MessagesRepository {
  private readonly manyRowsAs: 'rows' | 'json';
  private readonly numbering: MessageNumbering;

  constructor(
    private readonly db: Kysely<Database>,
    options: MessagesRepositoryOptions = {},
  ) {
    this.manyRowsAs = options.manyRowsAs ?? 'rows';
    this.numbering = new MessageNumbering(db);
  }

  /** Stores a message. Returns `{ message, created: false }` when its `sourceId` was stored before. */
  async insert(message: NewMessage, now: Date): Promise<{ message: ChatMessage; created: boolean }> {
    return this.numbering.store(message, () => insertNumbered(this.db, message, now));
  }

  /** Stores a message with its effects (usage, delivery job) in one round trip; see `insert`. */
  async insertWithEffects(message: NewMessage, effects: MessageEffects, now: Date): Promise<{ message: ChatMessage; created: boolean }> {
    return this.numbering.store(message, () => insertWithEffects(this.db, message, effects, now));
  }

  /**
   * Stores a person's message and counts the turn it starts (message count, loop guard reset) in one statement;
   * `session` is the session as the count left it, null when the message was stored before (nothing was counted).
   */
  async insertCountingTurn(message: NewMessage, now: Date): Promise<{ message: ChatMessage; created: boolean; session: Session | null }> {
    let counted: SessionJsonRow | null = null;
    const stored = await this.numbering.store(message, async () => {
      const row = await insertCountingTurn(this.db, message, now);
      counted = row?.counted_session ?? null;
      return row;
    });
    return { ...stored, session: stored.created && counted ? jsonRowToSession(counted) : null };
  }

  /** True when an incoming message with this source id was stored already. */
  async existsBySource(sourceId: string): Promise<boolean> {
    const row = await this.db.selectFrom('messages').select('id').where('source_id', '=', sourceId).executeTakeFirst();
    return row !== undefined;
  }

  /** A message by id. */
  async findById(id: number): Promise<ChatMessage | null> {
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** A message and the messages it replies to (in its `replyTo` order), in one round trip. */
  async findWithReplyTargets(id: number): Promise<{ message: ChatMessage; targets: ChatMessage[] } | null> {
    const { rows } = await WITH_REPLY_TARGETS.execute(this.db, id);
    // A target its author deleted is not quoted (its excerpt would show what they took back).
    const byId = new Map(rows.filter((row) => Number(row.id) === id || row.deleted_at === null).map((row) => [Number(row.id), toMessage(row)]));
    const message = byId.get(id);
    return message ? { message, targets: message.replyTo.flatMap((target) => byId.get(target) ?? []) } : null;
  }

  /** Messages by id, in one round trip, in the order of `ids` (missing ones left out). */
  async findByIds(ids: readonly number[]): Promise<ChatMessage[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('id', 'in', [...ids])
      .where('deleted_at', 'is', null)
      .execute();
    const byId = new Map(rows.map((row) => [Number(row.id), toMessage(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The messages of a session, oldest first; `afterId` pages forward, `limit` caps. */
  async listForSession(sessionId: string, options: { afterId?: number; limit?: number } = {}): Promise<ChatMessage[]> {
    let query = this.db.selectFrom('messages').selectAll().where('session_id', '=', sessionId).where('deleted_at', 'is', null);
    if (options.afterId !== undefined) query = query.where('id', '>', options.afterId);
    return this.readMany(query.orderBy('id').limit(options.limit ?? 10_000));
  }

  /** Messages of any session whose text contains `text` (case-insensitive), newest first. */
  async search(text: string, limit: number): Promise<ChatMessage[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`content->>'content' ILIKE ${pattern}`)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toMessage);
  }

  /** The last `count` messages of a session, oldest first. */
  async listRecent(sessionId: string, count: number): Promise<ChatMessage[]> {
    return this.readMany(recentMessagesQuery(this.db, sessionId, count));
  }

  /** `listRecent` with the horizon its snapshot leaves for `changesSince` (see message-changes.ts). */
  recentAtHorizon(sessionId: string, count: number): Promise<RecentMessagesRead> {
    return recentAtHorizon(this.db, sessionId, count);
  }

  /** The session's messages stored, changed or deleted since a read's horizon, and the next horizon. */
  changesSince(sessionId: string, horizon: string): Promise<MessageChanges> {
    return changesSince(this.db, sessionId, horizon);
  }

  /** The messages a query selects, oldest first, read as `manyRowsAs` says. */
  private async readMany(query: SelectQueryBuilder<Database, 'messages', MessageRow>): Promise<ChatMessage[]> {
    if (this.manyRowsAs === 'rows') return (await query.execute()).map(toMessage).sort((a, b) => a.id - b.id);
    const { rows } = await sql<{
      messages: MessageJsonRow[] | null;
    }>`select json_agg(message order by message.id) as messages from (${query}) as message`.execute(this.db);
    return (rows[0]?.messages ?? []).map(jsonRowToMessage);
  }

  /** Records one more delivered chunk of a message. */
  async appendExternalId(id: number, externalId: string, url: string | null): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({
        external_ids: sql`external_ids || ${toJson([externalId])}::jsonb`,
        ...(url ? { external_url: sql`coalesce(external_url, ${url})` } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Sets a message's delivery status. */
  async setDeliveryStatus(id: number, status: DeliveryStatus): Promise<void> {
    await this.db.updateTable('messages').set({ delivery_status: status }).where('id', '=', id).execute();
  }

  /**
   * A delivery's end: the message is marked delivered with every chunk's external id (the last chunk's is recorded
   * here, not by appendExternalId) and its job done (with its run), in one statement: atomic, one round trip. With a
   * `successor` claim, the same statement claims the next due job of the job's queue and answers it (else null).
   */
  async markDelivered(
    id: number,
    job: Pick<ClaimedJob, 'id' | 'runId' | 'queue'>,
    now: Date,
    delivered: DeliveredMessage,
    successor: SuccessorClaim | null = null,
  ): Promise<ClaimedJob | null> {
    const input = { id, job, now, externalIds: delivered.externalIds, url: delivered.url };
    if (!successor || job.queue === null || !successor.sending()) {
      await MARK_DELIVERED.execute(this.db, input);
      return null;
    }
    const claim = successorClaimInput(successor, { id: job.id, queue: job.queue }, now);
    const { rows } = await MARK_DELIVERED_AND_CLAIM.execute(this.db, { ...input, claim });
    const next = rows[0];
    return next ? toClaimedJob(next) : null;
  }

  /** Links a message to the trace and span that produced it. */
  async setTrace(id: number, traceId: string, spanId: string | null): Promise<void> {
    await this.db.updateTable('messages').set({ trace_id: traceId, span_id: spanId }).where('id', '=', id).execute();
  }

  /** How many messages each participant wrote in a session, and the id of its latest (fair turn-taking). */
  async spokenBy(sessionId: string, options: { beforeId?: number } = {}): Promise<Map<string, { count: number; lastId: number }>> {
    let query = this.db.selectFrom('messages');
    if (options.beforeId !== undefined) query = query.where('id', '<', options.beforeId);
    const rows = await query
      .select(['speaker_name', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.max('id').as('last_id')])
      .where('session_id', '=', sessionId)
      .where('speaker_kind', '=', 'participant')
      .where('delivery_status', '!=', 'withheld')
      .where('deleted_at', 'is', null)
      .groupBy('speaker_name')
      .execute();
    return new Map(rows.map((row) => [row.speaker_name, { count: Number(row.count), lastId: Number(row.last_id) }]));
  }

  /** Message counts per speaker in a session (balance). */
  async countBySpeaker(sessionId: string): Promise<{ speaker: string; kind: SpeakerKind; messages: number }[]> {
    const rows = await this.db
      .selectFrom('messages')
      .select(['speaker_name', 'speaker_kind', (eb) => eb.fn.countAll<number>().as('count')])
      .where('session_id', '=', sessionId)
      .where('deleted_at', 'is', null)
      .groupBy(['speaker_name', 'speaker_kind'])
      .execute();
    return rows.map((row) => ({ speaker: row.speaker_name, kind: row.speaker_kind as SpeakerKind, messages: Number(row.count) }));
  }
}
