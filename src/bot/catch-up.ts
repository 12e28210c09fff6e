/**
 * Reads back what was said while the bot was away. Discord replays nothing to a new gateway session (only a
 * RESUME within its window does), so after a start or a reconnect that was not a resume, every live session's
 * thread and every brainstorm channel is read from the last message seen, in id order, and each person's message
 * goes through the same handler as a live one. The gateway's claims make a message read twice act once.
 */
import type { Client, Message } from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import type { CatchUpPoint, SessionGateway } from '../core/ports.ts';

/** Discord's largest page of channel messages. */
const PAGE_SIZE = 100;

/** What a catch-up needs. */
export interface CatchUpOptions {
  client: Client;
  gateway: SessionGateway;
  brainstormChannelIds: readonly string[];
  /** Whether a guild is on this process's shards: the channels of other shards' guilds are read by their processes. */
  ownsGuild: (guildId: string) => boolean;
  /** The live message handler (`DiscordEvents.onMessage`). */
  onMessage: (message: Message) => Promise<void>;
  logger: Logger;
}

function byId(left: Message, right: Message): number {
  const a = BigInt(left.id);
  const b = BigInt(right.id);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads one channel after a message id, page by page, oldest first; returns how many messages it handed on. */
async function readChannel(options: CatchUpOptions, point: CatchUpPoint): Promise<number> {
  const channel = await options.client.channels.fetch(point.channelId).catch(() => null);
  if (!channel || !channel.isTextBased() || !('messages' in channel)) return 0;
  if ('guildId' in channel && channel.guildId && !options.ownsGuild(channel.guildId)) return 0;
  let after = point.afterExternalId;
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

/** Runs one catch-up over every point the gateway names; a channel that fails is logged and skipped. */
export async function catchUp(options: CatchUpOptions): Promise<number> {
  const gateway = options.gateway;
  if (!gateway.catchUpPoints) return 0;
  const points = await gateway.catchUpPoints('discord', options.brainstormChannelIds);
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
