/**
 * Reads back what was said while the bot was away. Discord replays nothing to a new gateway session (only a
 * RESUME within its window does), so after a start or a reconnect that was not a resume, every live session's
 * thread and every brainstorm channel is read from the last message seen, in id order, and each person's message
 * goes through the same handler as a live one. The gateway's claims make a message read twice act once. A session
 * room's latest page is read back first for edits and deletions made meanwhile (catch-up-revisions.ts).
 */
import { ChannelType, type Channel, type Client, type ForumChannel, type Message, type TextBasedChannel } from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import type { CatchUpPoint, CatchUpScope, SessionGateway } from '../core/ports.ts';
import { byId, readBackRevisions } from './catch-up-revisions.ts';
import { CLOSURE_REASONS, closureOfReadFailure, roomClosure } from './room-closure-events.ts';

/** Discord's largest page of channel messages. */
const PAGE_SIZE = 100;

/** What a catch-up needs. */
export interface CatchUpOptions {
  /** Which channels it reads (default: every one). */
  scope?: CatchUpScope;
  client: Client;
  gateway: SessionGateway;
  brainstormChannelIds: readonly string[];
  /** Whether a guild is on this process's shards: the channels of other shards' guilds are read by their processes. */
  ownsGuild: (guildId: string) => boolean;
  /** The live message handler (`DiscordEvents.onMessage`). */
  onMessage: (message: Message) => Promise<void>;
  /** The live edit handler (`DiscordEvents.onMessageUpdate`), for edits made while the bot was away. */
  onMessageUpdate: (message: Message) => Promise<void>;
  logger: Logger;
}

/**
 * Reads one channel after a message id, page by page, oldest first; returns how many messages it handed on. A room
 * deleted or locked while the bot was away ends its session, as the live event would have (after its messages are read).
 */
async function readChannel(options: CatchUpOptions, point: CatchUpPoint): Promise<number> {
  const brainstormChannelIds = new Set(options.brainstormChannelIds);
  let channel: Channel | null;
  let handed: number;
  try {
    // Read from Discord, not the cache: after a reconnect the cache still holds a thread as it was before, and a new
    // gateway session lists active threads only, so one archived and locked meanwhile would look open. A room deleted
    // meanwhile answers 10003 here or to the read.
    channel = await options.client.channels.fetch(point.channelId, { force: true });
    if (channel?.type === ChannelType.GuildForum) return options.ownsGuild(channel.guildId) ? await readForumPosts(options, channel, point.afterExternalId) : 0;
    if (!channel || !channel.isTextBased() || !('messages' in channel)) return 0;
    if ('guildId' in channel && channel.guildId && !options.ownsGuild(channel.guildId)) return 0;
    // Corrections first, so the answers to what was said meanwhile read the room as it stands.
    handed = await readBackRevisions(options, channel, point);
    handed += await readPages(options, channel, point.afterExternalId);
  } catch (error) {
    const closure = closureOfReadFailure(error, point.channelId, brainstormChannelIds);
    if (!closure) throw error;
    await options.gateway.roomClosed?.(closure);
    return 0;
  }
  // Locked by a moderator meanwhile: what people with the right to post there said is read first, then it ends.
  if (channel.isThread() && channel.locked && channel.parentId && brainstormChannelIds.has(channel.parentId)) {
    await options.gateway.roomClosed?.(roomClosure(channel.id, CLOSURE_REASONS.threadLocked));
  }
  return handed;
}

async function readPages(options: CatchUpOptions, channel: TextBasedChannel & { messages: unknown }, afterExternalId: string): Promise<number> {
  let after = afterExternalId;
  let handed = 0;
  for (;;) {
    const page = await channel.messages.fetch({ after, limit: PAGE_SIZE });
    // Discord answers newest first whatever the direction: order by id ourselves.
    const messages = [...page.values()].sort(byId);
    for (const message of messages) {
      await options.onMessage(message);
      handed += 1;
    }
    const last = messages.at(-1);
    if (!last || messages.length < PAGE_SIZE) return handed;
    after = last.id;
  }
}

/**
 * A brainstorm forum has no messages of its own: each post opened after the point is a topic, handed on by its first
 * message (its replies are read with its session's room once the session exists).
 */
async function readForumPosts(options: CatchUpOptions, forum: ForumChannel, afterExternalId: string): Promise<number> {
  const active = await forum.threads.fetchActive();
  const posts = [...active.threads.values()].filter((post) => post.parentId === forum.id && BigInt(post.id) > BigInt(afterExternalId));
  posts.sort(byId);
  let handed = 0;
  for (const post of posts) {
    const first = await post.fetchStarterMessage().catch(() => null);
    if (!first) continue;
    await options.onMessage(first);
    handed += 1;
  }
  return handed;
}

/** Runs one catch-up over every point the gateway names; a channel that fails is logged and skipped. */
export async function catchUp(options: CatchUpOptions): Promise<number> {
  const gateway = options.gateway;
  if (!gateway.catchUpPoints) return 0;
  const points = await gateway.catchUpPoints('discord', options.brainstormChannelIds, options.scope);
  let total = 0;
  for (const point of points) {
    try {
      total += await readChannel(options, point);
    } catch (error) {
      options.logger.warn({ err: error, channelId: point.channelId }, 'could not read back a channel after a reconnect');
    }
  }
  if (total > 0) options.logger.info({ messages: total, channels: points.length }, 'read back messages said while the bot was away');
  return total;
}
