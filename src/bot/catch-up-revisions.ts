/**
 * Edits and deletions made while the bot was away. Discord sends MESSAGE_UPDATE and MESSAGE_DELETE only to a
 * connected session, so after a start or a reconnect the latest page of a session's room is read back up to the
 * catch-up point: a person's message edited meanwhile goes through the live edit handler (which leaves an unchanged
 * one alone), and a stored message of a person that is no longer there was deleted.
 */
import type { Message, TextBasedChannel } from 'discord.js';
import type { CatchUpPoint, SessionGateway } from '../core/ports.ts';

/** Discord's largest page of channel messages. */
const PAGE_SIZE = 100;

/** What reading back revisions needs. */
export interface RevisionReadOptions {
  gateway: Pick<SessionGateway, 'messageDeleted'>;
  /** The live edit handler (`DiscordEvents.onMessageUpdate`). */
  onMessageUpdate: (message: Message) => Promise<void>;
}

/** Orders Discord objects by id (snowflakes grow with time). */
export function byId(left: { id: string }, right: { id: string }): number {
  const a = BigInt(left.id);
  const b = BigInt(right.id);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The messages of `channel` up to and including `upToId`, one page, oldest first. */
async function pageUpTo(channel: TextBasedChannel & { messages: unknown }, upToId: string): Promise<Message[]> {
  const page = await channel.messages.fetch({ before: (BigInt(upToId) + 1n).toString(), limit: PAGE_SIZE });
  return [...page.values()].sort(byId);
}

/**
 * Applies what people changed in a room's latest page while the bot was away; returns how many changes it handed on.
 * Only stored messages inside the page read are judged deleted: an older one is beyond what was read, not gone. A
 * thread's starter message lives in its parent channel (with the thread's id), so it is never judged.
 */
export async function readBackRevisions(
  options: RevisionReadOptions,
  channel: TextBasedChannel & { messages: unknown; id: string },
  point: CatchUpPoint,
): Promise<number> {
  const peopleSaid = point.peopleSaid ?? [];
  if (peopleSaid.length === 0) return 0;
  const page = await pageUpTo(channel, point.afterExternalId);
  let handed = 0;
  for (const message of page) {
    if (message.editedTimestamp === null || message.author.bot) continue;
    await options.onMessageUpdate(message);
    handed += 1;
  }
  const present = new Set(page.map((message) => message.id));
  const readFrom = page.length < PAGE_SIZE ? 0n : BigInt(page[0]!.id);
  const upTo = BigInt(point.afterExternalId);
  for (const id of peopleSaid) {
    const position = BigInt(id);
    if (present.has(id) || id === channel.id || position < readFrom || position > upTo) continue;
    await options.gateway.messageDeleted?.({ transport: 'discord', externalId: id });
    handed += 1;
  }
  return handed;
}
