/**
 * `GET /channels/{id}/messages` as Discord answers it: `around`, `before` and `after` are mutually exclusive, `limit`
 * is 1-100 (default 50), and every page comes newest first — with `after`, the page holds the messages right
 * after the id, still newest first, so a client must order them itself. Without Read Message History the
 * answer is an empty list, not an error.
 */
import { PermissionFlagsBits } from 'discord.js';
import { invalidFormBody } from './discord-errors.ts';
import type { FakeChannel, RecordedMessage } from './fake-model.ts';

const SNOWFLAKE = /^\d{1,20}$/;

/** The query of a history request, validated as Discord validates it. */
export interface HistoryQuery {
  anchor: { kind: 'around' | 'before' | 'after'; id: bigint } | null;
  limit: number;
}

/** Parses `around`/`before`/`after`/`limit`; throws 50035 Invalid Form Body where Discord does. */
export function parseHistoryQuery(query: URLSearchParams): HistoryQuery {
  const errors: { path: string; code: string; message: string }[] = [];
  const anchors = (['around', 'before', 'after'] as const).filter((kind) => query.has(kind));
  let anchor: HistoryQuery['anchor'] = null;
  for (const kind of anchors) {
    const value = query.get(kind) ?? '';
    if (!SNOWFLAKE.test(value)) errors.push({ path: kind, code: 'NUMBER_TYPE_COERCE', message: `Value "${value}" is not snowflake.` });
    else anchor ??= { kind, id: BigInt(value) };
  }
  if (anchors.length > 1)
    errors.push({ path: anchors[1] ?? 'after', code: 'BASE_TYPE_BAD_COMBINATION', message: 'around, before and after are mutually exclusive.' });
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? 50 : Number(rawLimit);
  if (!Number.isInteger(limit)) errors.push({ path: 'limit', code: 'NUMBER_TYPE_COERCE', message: `Value "${rawLimit}" is not int.` });
  else if (limit < 1) errors.push({ path: 'limit', code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 1.' });
  else if (limit > 100) errors.push({ path: 'limit', code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 100.' });
  if (errors.length > 0) throw invalidFormBody(errors);
  return { anchor, limit };
}

/** One page of a channel's history, newest first. */
export function historyPage(all: readonly RecordedMessage[], channel: FakeChannel, query: HistoryQuery, botPermissions: bigint): RecordedMessage[] {
  if ((botPermissions & PermissionFlagsBits.ReadMessageHistory) === 0n) return [];
  const visible = all
    .filter((message) => message.channelId === channel.id && !message.deleted && (message.flags & 64) === 0)
    .sort((left, right) => compare(left.id, right.id));
  const { anchor, limit } = query;
  let page: RecordedMessage[];
  if (!anchor) page = visible.slice(-limit);
  else if (anchor.kind === 'before') page = visible.filter((message) => BigInt(message.id) < anchor.id).slice(-limit);
  else if (anchor.kind === 'after') page = visible.filter((message) => BigInt(message.id) > anchor.id).slice(0, limit);
  else {
    const older = visible.filter((message) => BigInt(message.id) < anchor.id);
    const newer = visible.filter((message) => BigInt(message.id) >= anchor.id);
    const before = Math.floor(limit / 2);
    page = [...older.slice(-before), ...newer.slice(0, limit - Math.min(before, older.length))].slice(0, limit);
  }
  return page.reverse();
}

function compare(left: string, right: string): number {
  const difference = BigInt(left) - BigInt(right);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}
