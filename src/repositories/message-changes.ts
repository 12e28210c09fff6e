import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ChatMessage } from '../core/domain.ts';
import { BrainstormError } from '../core/errors.ts';
import type { Database, MessageRow } from '../db/schema.ts';
import { toMessage } from './message-rows.ts';

/**
 * A read of a session's messages and the horizon the next read of its changes starts from: the oldest transaction
 * still running when the read began (`pg_snapshot_xmin`). Whatever such a transaction commits later has an id at or
 * above it, so reading from the horizon misses nothing; rows read already may come again, unchanged.
 */
export interface MessagesAtHorizon {
  horizon: string;
}

/** A session's newest messages, oldest first, as of one snapshot. */
export interface RecentMessagesRead extends MessagesAtHorizon {
  messages: ChatMessage[];
}

/** The messages of a session written since a horizon: those alive, and the ids of those deleted since. */
export interface MessageChanges extends MessagesAtHorizon {
  changed: ChatMessage[];
  deletedIds: number[];
}

/** A message row beside the read's horizon; the row's columns are null when nothing matched (a left join). */
type RowAtHorizon = { horizon: string } & ({ [Column in keyof MessageRow]: MessageRow[Column] } | { [Column in keyof MessageRow]: null });

const isMessageRow = (row: RowAtHorizon): row is { horizon: string } & MessageRow => row.id !== null;

/** The newest `count` live messages of a session, newest first (what `listRecent` reads). */
export function recentMessagesQuery(db: Kysely<Database>, sessionId: string, count: number): SelectQueryBuilder<Database, 'messages', MessageRow> {
  return db.selectFrom('messages').selectAll().where('session_id', '=', sessionId).where('deleted_at', 'is', null).orderBy('id', 'desc').limit(count);
}

/** The newest `count` live messages of a session, oldest first, with the horizon of the same snapshot. */
export async function recentAtHorizon(db: Kysely<Database>, sessionId: string, count: number): Promise<RecentMessagesRead> {
  const read = await readAtHorizon(db, recentMessagesQuery(db, sessionId, count));
  return { horizon: read.horizon, messages: read.rows.map(toMessage).reverse() };
}

/** The messages of a session written (stored, changed or deleted) by transactions at or above `horizon`. */
export async function changesSince(db: Kysely<Database>, sessionId: string, horizon: string): Promise<MessageChanges> {
  const written = db
    .selectFrom('messages')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('changed_xid', '>=', sql<string>`${horizon}::xid8`)
    .orderBy('id');
  const read = await readAtHorizon(db, written);
  return {
    horizon: read.horizon,
    changed: read.rows.filter((row) => row.deleted_at === null).map(toMessage),
    deletedIds: read.rows.filter((row) => row.deleted_at !== null).map((row) => Number(row.id)),
  };
}

/** The rows `query` selects and the horizon of the same snapshot (one statement, one snapshot). */
async function readAtHorizon(
  db: Kysely<Database>,
  query: SelectQueryBuilder<Database, 'messages', MessageRow>,
): Promise<{ horizon: string; rows: MessageRow[] }> {
  const { rows } = await sql<RowAtHorizon>`
    select horizon.horizon, message.* from (select pg_snapshot_xmin(pg_current_snapshot())::text as horizon) as horizon
    left join lateral (${query}) as message on true`.execute(db);
  return { horizon: horizonOf(rows), rows: rows.filter(isMessageRow) };
}

function horizonOf(rows: RowAtHorizon[]): string {
  const horizon = rows[0]?.horizon;
  // The lateral join keeps the horizon's one row whatever matched: no row is a broken statement, not an empty read.
  if (horizon === undefined) throw new BrainstormError('internal', 'a read of message changes returned no horizon');
  return horizon;
}
