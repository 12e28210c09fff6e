/**
 * Discord saying a session's room can no longer hold a discussion: its thread was deleted or locked by a moderator,
 * or its brainstorm channel was deleted. Read from the raw gateway dispatches, because discord.js emits its own
 * thread events only for threads in its cache, and a thread archived before a restart never is.
 */
import { DiscordAPIError, Events, GatewayDispatchEvents, RESTJSONErrorCodes, type Client } from 'discord.js';
import { z } from 'zod';
import type { Logger } from '../logging/logger.ts';
import type { RoomClosure, SessionGateway } from '../core/ports.ts';

/** Why a room closed, as the record and the closing say it. */
export const CLOSURE_REASONS = {
  threadDeleted: 'the Discord thread was deleted',
  threadLocked: 'a moderator locked the Discord thread',
  channelDeleted: 'the brainstorm channel was deleted in Discord',
  botRemoved: 'the bot was removed from the Discord server',
} as const;

/** The closure of one room (a thread). */
export const roomClosure = (channelId: string, reason: string): RoomClosure => ({ transport: 'discord', channelId, scope: 'room', reason });
/** The closure of a brainstorm channel with every room opened from it. */
const channelClosure = (channelId: string, reason: string): RoomClosure => ({ transport: 'discord', channelId, scope: 'channel', reason });

const dispatchSchema = z.object({ t: z.string(), d: z.unknown() });
const channelSchema = z.object({
  id: z.string(),
  guild_id: z.string().optional(),
  parent_id: z.string().nullish(),
  thread_metadata: z.object({ locked: z.boolean().optional() }).optional(),
});
const WATCHED: readonly string[] = [GatewayDispatchEvents.ThreadDelete, GatewayDispatchEvents.ThreadUpdate, GatewayDispatchEvents.ChannelDelete];

/** The closure a raw gateway dispatch means for the brainstorm channels and their threads, or null. */
export function closureOf(packet: unknown, brainstormChannelIds: ReadonlySet<string>): RoomClosure | null {
  const dispatch = dispatchSchema.safeParse(packet);
  if (!dispatch.success || !WATCHED.includes(dispatch.data.t)) return null;
  const channel = channelSchema.safeParse(dispatch.data.d);
  if (!channel.success) return null;
  const { id, parent_id: parentId, thread_metadata: metadata } = channel.data;
  const inBrainstorm = parentId !== undefined && parentId !== null && brainstormChannelIds.has(parentId);
  switch (dispatch.data.t) {
    case GatewayDispatchEvents.ThreadDelete:
      return inBrainstorm ? roomClosure(id, CLOSURE_REASONS.threadDeleted) : null;
    case GatewayDispatchEvents.ThreadUpdate:
      return inBrainstorm && metadata?.locked === true ? roomClosure(id, CLOSURE_REASONS.threadLocked) : null;
    default:
      return brainstormChannelIds.has(id) ? channelClosure(id, CLOSURE_REASONS.channelDeleted) : null;
  }
}

const guildDeleteSchema = z.object({ t: z.literal(GatewayDispatchEvents.GuildDelete), d: z.object({ id: z.string(), unavailable: z.boolean().optional() }) });

/**
 * The closures of the bot's removal from a server (GUILD_DELETE without `unavailable`; with it, Discord is only having
 * an outage): every brainstorm channel there, with its rooms. `guildOf` names a channel's server (from the cache).
 */
export function closuresOfRemoval(packet: unknown, brainstormChannelIds: ReadonlySet<string>, guildOf: (channelId: string) => string | null): RoomClosure[] {
  const removal = guildDeleteSchema.safeParse(packet);
  if (!removal.success || removal.data.d.unavailable === true) return [];
  return [...brainstormChannelIds]
    .filter((channelId) => guildOf(channelId) === removal.data.d.id)
    .map((channelId) => channelClosure(channelId, CLOSURE_REASONS.botRemoved));
}

/** The closure a failed read of a catch-up point means: only Discord's Unknown Channel says it is gone for good. */
export function closureOfReadFailure(error: unknown, channelId: string, brainstormChannelIds: ReadonlySet<string>): RoomClosure | null {
  if (!(error instanceof DiscordAPIError) || error.code !== RESTJSONErrorCodes.UnknownChannel) return null;
  return brainstormChannelIds.has(channelId)
    ? channelClosure(channelId, CLOSURE_REASONS.channelDeleted)
    : roomClosure(channelId, CLOSURE_REASONS.threadDeleted);
}

/** What watching for closures needs. */
export interface RoomClosureWatchOptions {
  client: Client;
  gateway: SessionGateway;
  brainstormChannelIds: ReadonlySet<string>;
  logger: Logger;
  /** Keeps the handling in the bot's handled set, so a stop waits for it and tests can wait on it. */
  track: (id: string, work: Promise<void>) => void;
}

/** Ends the sessions of every room Discord says was deleted or locked, as it says so. */
export function watchRoomClosures(options: RoomClosureWatchOptions): void {
  const { gateway, logger } = options;
  // Read before discord.js handles the packet: a removed server's channels are still in its cache here.
  const guildOf = (channelId: string): string | null => {
    const channel = options.client.channels.cache.get(channelId);
    return channel && 'guildId' in channel ? channel.guildId : null;
  };
  options.client.on(Events.Raw, (packet: unknown) => {
    const closure = closureOf(packet, options.brainstormChannelIds);
    if (!gateway.roomClosed) return;
    for (const each of [...(closure ? [closure] : []), ...closuresOfRemoval(packet, options.brainstormChannelIds, guildOf)]) {
      const handling = gateway.roomClosed(each).then(
        () => undefined,
        (error: unknown) => logger.error({ err: error, channelId: each.channelId }, 'could not end the sessions of a closed room'),
      );
      options.track(`closure-${each.channelId}`, handling);
    }
  });
}
