import { sql, type InsertObject, type Kysely } from 'kysely';
import { toJson, type Database, type MessageRow } from '../db/schema.ts';
import type { ChatMessage, Citation, DeliveryStatus, Speaker, SpeakerKind } from '../core/domain.ts';
import { isCostSource, type CostSource } from '../core/cost.ts';
import { BrainstormError } from '../core/errors.ts';

/** A message to store. `sourceId` makes storing an incoming message idempotent. */
export interface NewMessage {
  sessionId: string;
  sourceId?: string | null;
  speaker: Speaker;
  role: ChatMessage['role'];
  text: string;
  model?: string | null;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  costSource?: CostSource;
  replyTo?: number[];
  traceId?: string | null;
  spanId?: string | null;
  deliveryStatus: DeliveryStatus;
  externalIds?: string[];
  externalUrl?: string | null;
  /** An answer cut short; kept in the content JSON. */
  interrupted?: boolean;
  /** Web pages the answer cites; kept in the content JSON. */
  citations?: Citation[];
  /** Web searches run for the answer; kept in the content JSON. */
  webSearches?: number;
}

function toMessage(row: MessageRow): ChatMessage {
  return {
    id: Number(row.id),
    sessionId: row.session_id,
    number: Number(row.number),
    speaker: { kind: row.speaker_kind as SpeakerKind, name: row.speaker_name, ...(row.speaker_id ? { id: row.speaker_id } : {}) },
    role: row.role as ChatMessage['role'],
    text: row.content.content,
    model: row.model,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costUsd: Number(row.cost_usd),
    ...(isCostSource(row.cost_source) ? { costSource: row.cost_source } : {}),
    replyTo: row.reply_to ?? [],
    traceId: row.trace_id,
    deliveryStatus: row.delivery_status as DeliveryStatus,
    externalIds: row.external_ids ?? [],
    externalUrl: row.external_url,
    createdAt: row.created_at,
    ...(row.content.interrupted ? { interrupted: true } : {}),
    ...(row.content.citations?.length ? { citations: row.content.citations } : {}),
    ...(row.content.webSearches ? { webSearches: row.content.webSearches } : {}),
  };
}

/** The content JSON of a message: its text, and what else it carries (cut short, cited pages). */
function contentOf(message: NewMessage): MessageRow['content'] {
  return {
    role: message.role,
    content: message.text,
    name: message.speaker.name,
    ...(message.interrupted ? { interrupted: true } : {}),
    ...(message.citations?.length ? { citations: message.citations } : {}),
    ...(message.webSearches ? { webSearches: message.webSearches } : {}),
  };
}

/** Writers racing for one session's next number retry; this many losses in a row means something else is wrong. */
const NUMBER_ATTEMPTS = 50;

/** The row of a new message, numbered next in its session (the number is read in the same statement). */
function numberedRow(message: NewMessage, now: Date): InsertObject<Database, 'messages'> {
  return {
    session_id: message.sessionId,
    number: sql<number>`(SELECT COALESCE(MAX(number), 0) + 1 FROM messages WHERE session_id = ${message.sessionId})`,
    source_id: message.sourceId ?? null,
    speaker_kind: message.speaker.kind,
    speaker_name: message.speaker.name,
    speaker_id: message.speaker.id ?? null,
    role: message.role,
    content: toJson(contentOf(message)),
    model: message.model ?? null,
    input_tokens: message.inputTokens ?? 0,
    output_tokens: message.outputTokens ?? 0,
    cost_usd: message.costUsd ?? 0,
    cost_source: message.costSource ?? null,
    reply_to: toJson(message.replyTo ?? []),
    trace_id: message.traceId ?? null,
    span_id: message.spanId ?? null,
    delivery_status: message.deliveryStatus,
    external_ids: toJson(message.externalIds ?? []),
    external_url: message.externalUrl ?? null,
    created_at: now,
  };
}

/** Inserts with the session's next number; undefined when a unique key (its source id, or that number) was taken. */
function insertNumbered(db: Kysely<Database>, message: NewMessage, now: Date): Promise<MessageRow | undefined> {
  return db
    .insertInto('messages')
    .values(numberedRow(message, now))
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Stores a message, adds its usage to its session and queues its delivery, all in one statement (atomic, one round
 * trip); undefined when a unique key was taken (then nothing happened).
 */
function insertWithEffects(db: Kysely<Database>, message: NewMessage, effects: MessageEffects, now: Date): Promise<MessageRow | undefined> {
  const { usage, delivery } = effects;
  const payload = toJson(delivery?.payload ?? {});
  return db
    .with('stored', (creator) =>
      creator
        .insertInto('messages')
        .values(numberedRow(message, now))
        .onConflict((conflict) => conflict.doNothing())
        .returningAll(),
    )
    .with('counted', (creator) =>
      creator
        .updateTable('sessions')
        .set({
          message_count: sql`message_count + ${usage.messages}`,
          total_tokens: sql`total_tokens + ${usage.tokens}`,
          total_cost_usd: sql`total_cost_usd + ${usage.costUsd}`,
          updated_at: now,
        })
        .where('id', '=', message.sessionId)
        .where((eb) => eb.exists(eb.selectFrom('stored').select('stored.id')))
        .returning('id'),
    )
    .with('queued', (creator) =>
      creator
        .insertInto('jobs')
        .columns(['kind', 'dedupe_key', 'queue', 'session_id', 'payload', 'status', 'run_at', 'max_retries', 'created_at', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom('stored')
            .select([
              sql<string>`${delivery?.kind ?? ''}::text`.as('kind'),
              sql<string>`'message:' || stored.id`.as('dedupe_key'),
              sql<string>`${delivery?.queue ?? ''}::text`.as('queue'),
              'stored.session_id',
              sql<string>`${payload}::jsonb || jsonb_build_object('messageId', stored.id)`.as('payload'),
              sql<string>`'pending'`.as('status'),
              sql<Date>`${delivery?.runAt ?? now}::timestamptz`.as('run_at'),
              sql<number>`${delivery?.maxRetries ?? 0}::integer`.as('max_retries'),
              sql<Date>`${now}::timestamptz`.as('created_at'),
              sql<Date>`${now}::timestamptz`.as('updated_at'),
            ])
            .where(sql<boolean>`${delivery !== null}::boolean`),
        )
        .returning('id'),
    )
    .selectFrom('stored')
    .selectAll()
    .executeTakeFirst();
}

/** What storing a message also does, in the same statement. */
export interface MessageEffects {
  /** Added to the session's counters. */
  usage: { messages: number; tokens: number; costUsd: number };
  /** Its delivery job (the payload gains `messageId`, the dedupe key is `message:<id>`); null when it is not sent. */
  delivery: { kind: string; queue: string; payload: Record<string, unknown>; runAt: Date; maxRetries: number } | null;
}

/** Messages of sessions, ordered by id. */
export class MessagesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a message. Returns `{ message, created: false }` when its `sourceId` was stored before. */
  async insert(message: NewMessage, now: Date): Promise<{ message: ChatMessage; created: boolean }> {
    return this.numbered(message, () => insertNumbered(this.db, message, now));
  }

  /** Stores a message with its effects (usage, delivery job) in one round trip; see `insert`. */
  async insertWithEffects(message: NewMessage, effects: MessageEffects, now: Date): Promise<{ message: ChatMessage; created: boolean }> {
    return this.numbered(message, () => insertWithEffects(this.db, message, effects, now));
  }

  private async numbered(message: NewMessage, insert: () => Promise<MessageRow | undefined>): Promise<{ message: ChatMessage; created: boolean }> {
    // One statement, no lock: two writers in one session may read the same next number on a Postgres server; the
    // unique (session, number) index turns the loser's insert into nothing, and it takes the next number.
    for (let attempt = 0; attempt < NUMBER_ATTEMPTS; attempt += 1) {
      const inserted = await insert();
      if (inserted) return { message: toMessage(inserted), created: true };
      if (message.sourceId) {
        const existing = await this.db.selectFrom('messages').selectAll().where('source_id', '=', message.sourceId).executeTakeFirst();
        if (existing) return { message: toMessage(existing), created: false };
      }
    }
    throw new BrainstormError('internal', `could not number a message of session ${message.sessionId}: ${NUMBER_ATTEMPTS} writers came first`);
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
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('id', '=', id),
          eb(
            'id',
            'in',
            eb
              .selectFrom('messages as replying')
              .select(sql<number>`(jsonb_array_elements_text(replying.reply_to))::bigint`.as('target'))
              .where('replying.id', '=', id),
          ),
        ]),
      )
      .execute();
    const byId = new Map(rows.map((row) => [Number(row.id), toMessage(row)]));
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
      .execute();
    const byId = new Map(rows.map((row) => [Number(row.id), toMessage(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The messages of a session, oldest first; `afterId` pages forward, `limit` caps. */
  async listForSession(sessionId: string, options: { afterId?: number; limit?: number } = {}): Promise<ChatMessage[]> {
    let query = this.db.selectFrom('messages').selectAll().where('session_id', '=', sessionId).where('deleted_at', 'is', null);
    if (options.afterId !== undefined) query = query.where('id', '>', options.afterId);
    const rows = await query
      .orderBy('id')
      .limit(options.limit ?? 10_000)
      .execute();
    return rows.map(toMessage);
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
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(count)
      .execute();
    return rows.reverse().map(toMessage);
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

  /** Links a message to the trace and span that produced it. */
  async setTrace(id: number, traceId: string, spanId: string | null): Promise<void> {
    await this.db.updateTable('messages').set({ trace_id: traceId, span_id: spanId }).where('id', '=', id).execute();
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
