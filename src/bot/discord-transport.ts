/**
 * The Discord transport: a session's room is a thread; each speaker posts under its own name and avatar through
 * one webhook per parent channel (bot messages with an embed author where webhooks are not allowed); long text is
 * split under 2000 characters; no AI message ever pings anyone; deliveries resume without posting twice.
 */
import {
  ChannelType,
  RESTJSONErrorCodes,
  Routes,
  ThreadAutoArchiveDuration,
  type Client,
  type ForumChannel,
  type Message,
  type NewsChannel,
  type TextChannel,
} from 'discord.js';
import { shardOf, type Sharding } from '../config/sharding.ts';
import type { Logger } from '../logging/logger.ts';
import type { Clock } from '../core/clock.ts';
import type { Speaker } from '../core/domain.ts';
import type { ConversationLine, DeliveredMessage, DeliveryProgress, OutgoingMessage, Transport } from '../core/ports.ts';
import { ClientReadiness } from './client-readiness.ts';
import { readConversation } from './conversation-history.ts';
import { DiscordTransportError, isMissingPermissions, isUnknownResource, toTransportError } from './discord-errors.ts';
import { KeyedSerialQueue } from '../core/keyed-serial-queue.ts';
import { approveButtonRow, composeChunks, messageUrl, threadName } from './message-format.ts';
import { commandButtonRows, ROWS_PER_MESSAGE } from './command-buttons.ts';
import { PersonaPoster, type RoomTarget } from './persona-poster.ts';
import { PreviewPacer } from './preview-pacer.ts';
import { WebhookRegistry } from './webhook-registry.ts';
import { clipText } from '../core/text-clip.ts';

/** Options of the Discord transport. */
export interface DiscordTransportOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** The persona webhook's own name (default "Brainstorm"). */
  webhookName?: string;
  /** How long to keep the embed fallback after a Missing Permissions before trying webhooks again (default 10 min). */
  recheckDeniedAfterMs?: number;
  /** This process's Discord shards (SHARD_COUNT / SHARD_IDS); absent: every guild is ours. */
  sharding?: Sharding | null;
  /** How long a request waits for the bot's first READY before it fails as retryable (default 30 s). */
  readyWaitMs?: number;
}

/** Implements `Transport` over discord.js. */
export class DiscordTransport implements Transport {
  readonly name = 'discord';
  private readonly queue = new KeyedSerialQueue();
  private readonly poster: PersonaPoster;
  private readonly pacer: PreviewPacer;
  private readonly readiness: ClientReadiness;

  constructor(private readonly options: DiscordTransportOptions) {
    this.readiness = new ClientReadiness(options.client, options.clock, options.readyWaitMs ?? 30_000);
    const webhooks = new WebhookRegistry({
      clock: options.clock,
      logger: options.logger,
      applicationId: () => options.client.application?.id ?? null,
      webhookName: options.webhookName ?? 'Brainstorm',
      recheckDeniedAfterMs: options.recheckDeniedAfterMs ?? 10 * 60_000,
    });
    this.poster = new PersonaPoster(webhooks, options.logger);
    this.pacer = new PreviewPacer(options.clock);
  }

  /** Whether the room's guild is on one of this process's shards (its gateway events arrive here). */
  async handlesRoom(roomId: string): Promise<boolean> {
    if (!this.options.sharding) return true;
    await this.readiness.connected();
    const channel = await this.options.client.channels.fetch(roomId).catch(() => null);
    const guildId = channel && 'guildId' in channel ? channel.guildId : null;
    return guildId ? this.ownsGuild(guildId) : false;
  }

  /** Whether a guild is on one of this process's shards (every guild when the bot is not sharded). */
  ownsGuild(guildId: string): boolean {
    const sharding = this.options.sharding;
    return !sharding || sharding.ids.includes(shardOf(guildId, sharding.count));
  }

  /** Opens a thread on the topic message (or on a starter message the bot posts) named after the title. */
  async openRoom(request: { originChannelId: string; originMessageId: string | null; title: string }): Promise<{ roomId: string; url: string | null }> {
    const origin = await this.brainstormChannel(request.originChannelId);
    if (origin.type === ChannelType.GuildForum) return this.forumPost(origin, request);
    let starter: Message | null = null;
    try {
      starter = request.originMessageId
        ? await origin.messages.fetch(request.originMessageId)
        : await origin.send({ content: `**Brainstorm:** ${clipText(request.title, 1900)}`, allowedMentions: { parse: [] } });
      if (starter.hasThread && starter.thread) return { roomId: starter.thread.id, url: starter.thread.url };
      const thread = await starter.startThread({ name: threadName(request.title), autoArchiveDuration: ThreadAutoArchiveDuration.OneDay });
      return { roomId: thread.id, url: thread.url };
    } catch (error) {
      // A retried openRoom finds the thread it already opened (thread id = starter message id).
      if (starter && isThreadAlreadyCreated(error)) {
        const existing = await this.options.client.channels.fetch(starter.id).catch(() => null);
        if (existing?.isThread()) return { roomId: existing.id, url: existing.url };
      }
      throw toTransportError(error, 'open a thread for the session', 'Create Public Threads');
    }
  }

  /** Delivers a whole message in chunks, editing the preview into the first, skipping chunks already delivered. */
  async deliver(roomId: string, message: OutgoingMessage, progress: DeliveryProgress): Promise<DeliveredMessage> {
    // Outside the room queue: a streaming edit still running needs that queue to finish.
    if (progress.previewExternalId) await this.pacer.finish(progress.previewExternalId);
    return this.queue.run(roomId, async () => {
      const target = await this.room(roomId);
      const chunks = composeChunks(message);
      const rows = [...(message.actions?.includes('approve_plan') ? [approveButtonRow()] : []), ...commandButtonRows(message.buttons)];
      const buttons = rows.slice(0, ROWS_PER_MESSAGE);
      const delivered = [...progress.deliveredExternalIds];
      for (let index = delivered.length; index < chunks.length; index += 1) {
        const text = chunks[index] as string;
        const last = index === chunks.length - 1;
        const components = last ? buttons : [];
        // Files go with the last part; a streamed answer's preview is edited, so its files follow in a post of their own.
        const files = last ? (message.files ?? []) : [];
        const previewId = index === 0 ? progress.previewExternalId : null;
        const since = previewId ? null : progress.resumedSince;
        const posted = since ? await this.postedBefore(target, message.speaker, text, since, delivered) : null;
        const id =
          posted ??
          (previewId
            ? await this.poster.finishPreview(target, previewId, message.speaker, text, components)
            : (await this.poster.post(target, message.speaker, text, components, { files })).id);
        if (previewId && files.length > 0) await this.poster.post(target, message.speaker, '', [], { files });
        delivered.push(id);
        if (index < chunks.length - 1) await progress.onChunkDelivered(id, this.url(target, id));
      }
      const first = delivered[0];
      return { externalIds: delivered, url: first ? this.url(target, first) : null };
    });
  }

  /** The chunk an earlier run of a resumed delivery posted without recording it (see `DeliveryProgress.resumedSince`). */
  private async postedBefore(target: RoomTarget, speaker: Speaker, text: string, since: Date, delivered: string[]): Promise<string | null> {
    const found = await this.poster.findPosted(target, speaker, text, { afterId: delivered.at(-1) ?? null, since }, delivered);
    if (found)
      this.options.logger.info({ roomId: target.room.id, externalId: found }, 'a resumed delivery found its message already posted: not posting it twice');
    return found;
  }

  /** Posts the streaming message of a speaker who has started writing. */
  postPreview(roomId: string, message: OutgoingMessage): Promise<string> {
    return this.queue.run(roomId, async () => {
      const target = await this.room(roomId);
      const posted = await this.poster.post(target, message.speaker, previewText(message), [], { preview: true });
      this.pacer.posted(posted.id);
      return posted.id;
    });
  }

  /** Replaces the streaming message's text, never more than once a second per message where it reaches Discord. */
  editPreview(roomId: string, externalId: string, message: OutgoingMessage): Promise<void> {
    return this.pacer.schedule(externalId, () =>
      this.queue.run(roomId, async () => {
        if (!this.pacer.editable(externalId)) return; // its stream settled meanwhile: the final text may be there already
        const target = await this.room(roomId);
        await this.poster.edit(target, externalId, message.speaker, previewText(message), []);
      }),
    );
  }

  /** The preview's stream is over: resolves once no edit of it can reach Discord any more (see PreviewPacer.settle). */
  settlePreview(_roomId: string, externalId: string): Promise<void> {
    return this.pacer.settle(externalId);
  }

  /** Deletes a preview whose answer will never come here (its process died or handed the session over); gone already counts as deleted. */
  removePreview(roomId: string, externalId: string): Promise<void> {
    return this.queue.run(roomId, async () => {
      const target = await this.room(roomId);
      await this.poster.removeStale(target, externalId);
    });
  }

  /** Removes the half-written previews of ours that no process is writing (see PersonaPoster.strayPreviews); how many. */
  removeStrayPreviews(roomId: string): Promise<number> {
    return this.queue.run(roomId, async () => {
      const target = await this.room(roomId);
      const strays = await this.poster.strayPreviews(target);
      for (const id of strays) await this.poster.removeStale(target, id);
      return strays.length;
    });
  }

  /**
   * Runs `task` (a command reply, a refusal) after everything already handed over for the room: bot-token posts
   * and webhook posts sit in different rate-limit buckets in discord.js, so only this queue keeps them in order.
   */
  inRoomOrder<T>(roomId: string, task: () => Promise<T>): Promise<T> {
    return this.queue.run(roomId, task);
  }

  /** Shows "… is typing" in the room; cosmetic, so failures are only logged. */
  async sendTyping(roomId: string): Promise<void> {
    try {
      const target = await this.room(roomId);
      await target.room.sendTyping();
    } catch (error) {
      this.options.logger.debug({ roomId, error: String(error) }, 'typing indicator failed');
    }
  }

  /** Deletes a person's message (a refused secret); needs Manage Messages. A message already gone counts as deleted. */
  async deleteMessage(channelId: string, externalId: string): Promise<'deleted' | 'forbidden'> {
    await this.readiness.connected();
    try {
      await this.options.client.rest.delete(Routes.channelMessage(channelId, externalId), { reason: 'It contained a secret key' });
      return 'deleted';
    } catch (error) {
      if (isMissingPermissions(error)) return 'forbidden';
      if (isUnknownResource(error, RESTJSONErrorCodes.UnknownMessage)) return 'deleted';
      throw toTransportError(error, 'delete a message that holds a secret', 'Manage Messages');
    }
  }

  /** The last people's messages of a channel or thread (a session started there reads them). */
  recentMessages(channelId: string, limit: number): Promise<ConversationLine[]> {
    return readConversation(this.options.client, channelId, limit);
  }

  private url(target: RoomTarget, messageId: string): string {
    return messageUrl(target.room.guildId, target.room.id, messageId);
  }

  /** The thread (or channel) of a room, with the parent channel that owns the webhook. */
  private async room(roomId: string): Promise<RoomTarget> {
    await this.readiness.connected();
    const channel = await this.options.client.channels.fetch(roomId).catch((error: unknown) => {
      throw toTransportError(error, 'find the session thread');
    });
    if (channel?.isThread()) {
      const parent = channel.parent ?? (channel.parentId ? await this.options.client.channels.fetch(channel.parentId) : null);
      if (!parent || !(isWebhookChannel(parent) || parent.type === ChannelType.GuildForum)) throw notUsable(roomId);
      return { room: channel, parent, threadId: channel.id };
    }
    if (channel && isWebhookChannel(channel)) return { room: channel, parent: channel, threadId: undefined };
    throw notUsable(roomId);
  }

  private async brainstormChannel(channelId: string): Promise<TextChannel | NewsChannel | ForumChannel> {
    await this.readiness.connected();
    const channel = await this.options.client.channels.fetch(channelId).catch((error: unknown) => {
      throw toTransportError(error, 'find the brainstorm channel');
    });
    if (!channel || !(isWebhookChannel(channel) || channel.type === ChannelType.GuildForum)) throw notUsable(channelId);
    return channel;
  }

  /**
   * In a forum, a session's room is the post that raised its topic (its thread has the starter message's id); a
   * session started otherwise (`/brainstorm start`) opens a post of its own.
   */
  private async forumPost(forum: ForumChannel, request: { originMessageId: string | null; title: string }): Promise<{ roomId: string; url: string | null }> {
    try {
      if (request.originMessageId) {
        const post = await this.options.client.channels.fetch(request.originMessageId);
        if (post?.isThread() && post.parentId === forum.id) return { roomId: post.id, url: post.url };
        throw notUsable(request.originMessageId);
      }
      const post = await forum.threads.create({
        name: threadName(request.title),
        message: { content: `**Brainstorm:** ${clipText(request.title, 1900)}`, allowedMentions: { parse: [] } },
      });
      return { roomId: post.id, url: post.url };
    } catch (error) {
      if (DiscordTransportError.isInstance(error)) throw error;
      throw toTransportError(error, 'open a post for the session', 'Send Messages');
    }
  }
}

/** The preview shows the first chunk of what is written so far (the final delivery splits the rest). */
function previewText(message: OutgoingMessage): string {
  return composeChunks(message)[0] ?? '…';
}

function isWebhookChannel(channel: { type: ChannelType }): channel is TextChannel | NewsChannel {
  return channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement;
}

function isThreadAlreadyCreated(error: unknown): boolean {
  return (error as { code?: unknown }).code === RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage;
}

function notUsable(channelId: string): DiscordTransportError {
  return new DiscordTransportError(
    'not_found',
    `Discord channel ${channelId} is not a text channel or thread the bot can post in.`,
    'unknown_channel',
    false,
    null,
    null,
  );
}
