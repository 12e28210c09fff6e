import type { Kysely } from 'kysely';
import type { ChatMessage } from '../core/domain.ts';
import { BrainstormError } from '../core/errors.ts';
import { KeyedSerialQueue } from '../core/keyed-serial-queue.ts';
import type { Database, MessageRow } from '../db/schema.ts';
import { toMessage, type NewMessage } from './message-rows.ts';

/** Writers racing for one session's next number retry; this many losses in a row means something else is wrong. */
const NUMBER_ATTEMPTS = 50;

/** A stored message, and whether this call stored it (false: its source id was stored before). */
export interface NumberedMessage {
  message: ChatMessage;
  created: boolean;
}

/**
 * Stores messages numbered next in their session. A session's writers in this process take their numbers one after
 * another: three participants' answers arrive together, and racing for one number the losers' inserts waited for the
 * winner's commit, found it taken and were sent again (a third more statements per answer under load). Writers in
 * other processes may still race (see `attempt`).
 */
export class MessageNumbering {
  private readonly sessionWriters = new KeyedSerialQueue();

  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `insert` (a statement that numbers the message itself) until it stores the message or finds it stored. */
  store(message: NewMessage, insert: () => Promise<MessageRow | undefined>): Promise<NumberedMessage> {
    return this.sessionWriters.run(message.sessionId, () => this.attempt(message, insert));
  }

  private async attempt(message: NewMessage, insert: () => Promise<MessageRow | undefined>): Promise<NumberedMessage> {
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
}
