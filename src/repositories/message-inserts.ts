import { sql, type Kysely } from 'kysely';
import { toJson, type Database, type MessageRow, type SessionJsonRow } from '../db/schema.ts';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { numberedRow, type NewMessage } from './message-rows.ts';

/** Inserts with the session's next number; undefined when a unique key (its source id, or that number) was taken. */
export function insertNumbered(db: Kysely<Database>, message: NewMessage, now: Date): Promise<MessageRow | undefined> {
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
export async function insertWithEffects(db: Kysely<Database>, message: NewMessage, effects: MessageEffects, now: Date): Promise<MessageRow | undefined> {
  return (await INSERT_WITH_EFFECTS.execute(db, { message, effects, now })).rows[0];
}

/** A statement that begins by storing a message, numbered next in its session (`stored`: the row, if it was stored). */
function storing(db: Kysely<Database>, message: NewMessage, now: Date) {
  return db.with('stored', (creator) =>
    creator
      .insertInto('messages')
      .values(numberedRow(message, now))
      .onConflict((conflict) => conflict.doNothing())
      .returningAll(),
  );
}

/** The values `storing` binds: the row's columns in order, the number's subquery reading the session id. */
function storedParameters(message: NewMessage, now: Date): unknown[] {
  return Object.entries(numberedRow(message, now)).map(([column, value]) => (column === 'number' ? message.sessionId : value));
}

/** The values of `effectsQuery`, in the order of its placeholders. */
function effectsParameters({ message, effects, now }: EffectsInput): unknown[] {
  const { usage, delivery } = effects;
  return [
    ...storedParameters(message, now),
    usage.messages,
    usage.tokens,
    usage.costUsd,
    now,
    message.sessionId,
    delivery?.kind ?? '',
    delivery?.queue ?? '',
    toJson(delivery?.payload ?? {}),
    delivery?.runAt ?? now,
    delivery?.maxRetries ?? 0,
    now,
    now,
    delivery !== null,
  ];
}

/** Stored, counted and queued: the statement of every message the app posts. */
const INSERT_WITH_EFFECTS = new PreparedStatement('insert message with effects', effectsQuery, effectsParameters);

/** What the statement that stores a message with its effects binds. */
interface EffectsInput {
  message: NewMessage;
  effects: MessageEffects;
  now: Date;
}

/** Stores a message, counts its usage and queues its delivery (see `insertWithEffects`). */
function effectsQuery(db: Kysely<Database>, { message, effects, now }: EffectsInput) {
  const { usage, delivery } = effects;
  const payload = toJson(delivery?.payload ?? {});
  return storing(db, message, now)
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
    .selectAll();
}

/** What storing a message also does, in the same statement. */
export interface MessageEffects {
  /** Added to the session's counters. */
  usage: { messages: number; tokens: number; costUsd: number };
  /** Its delivery job (the payload gains `messageId`, the dedupe key is `message:<id>`); null when it is not sent. */
  delivery: { kind: string; queue: string; payload: Record<string, unknown>; runAt: Date; maxRetries: number } | null;
}

/** A person's message as stored, with their session as counting the turn left it (null when it was not counted). */
export type CountedTurnRow = MessageRow & { counted_session: SessionJsonRow | null };

/**
 * Stores a person's message and counts the turn it starts (the session's message count, and its loop guard reset), in
 * one statement; answers the session as it left it. Undefined when a unique key was taken (then nothing happened).
 */
export async function insertCountingTurn(db: Kysely<Database>, message: NewMessage, now: Date): Promise<CountedTurnRow | undefined> {
  return (await INSERT_COUNTING_TURN.execute(db, { message, now })).rows[0];
}

/** What storing a person's message with its turn binds. */
interface CountingTurnInput {
  message: NewMessage;
  now: Date;
}

/** The person's message that starts a turn: stored and counted, one round trip before the models are asked. */
const INSERT_COUNTING_TURN = new PreparedStatement(
  "insert a person's message counting their turn",
  (db: Kysely<Database>, { message, now }: CountingTurnInput) =>
    storing(db, message, now)
      .with('counted', (creator) =>
        creator
          .updateTable('sessions')
          .set({ message_count: sql`message_count + 1`, ai_rounds_since_human: 0, updated_at: now })
          .where('id', '=', message.sessionId)
          .where((eb) => eb.exists(eb.selectFrom('stored').select('stored.id')))
          .returningAll(),
      )
      .selectFrom('stored')
      .selectAll('stored')
      .select((eb) =>
        eb
          .selectFrom('counted')
          .select(sql<SessionJsonRow>`to_jsonb(counted)`.as('session'))
          .as('counted_session'),
      ),
  ({ message, now }: CountingTurnInput) => [...storedParameters(message, now), 0, now, message.sessionId],
);
