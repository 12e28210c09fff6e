/** Posts and edits one speaker's messages: through the channel webhook, or as the bot with an embed author. */
import {
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  SnowflakeUtil,
  type APIActionRowComponent,
  type APIButtonComponent,
  type AttachmentPayload,
  type Message,
  type NewsChannel,
  type TextChannel,
  type ThreadChannel,
  type Webhook,
} from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import type { Speaker } from '../core/domain.ts';
import { byId } from './catch-up-revisions.ts';
import type { OutgoingFile } from '../core/ports.ts';
import { DiscordTransportError, isUnknownResource, toTransportError, type DiscordFailure } from './discord-errors.ts';
import { fallbackEmbed, personaUsername } from './message-format.ts';
import type { WebhookChannel, WebhookRegistry } from './webhook-registry.ts';

/** Where a room's messages go: the thread (or channel) and the parent channel that owns the webhook. */
export interface RoomTarget {
  room: ThreadChannel | TextChannel | NewsChannel;
  parent: WebhookChannel;
  threadId: string | undefined;
}

/** How many pages of 100 a resumed delivery reads to find a message its earlier run posted. */
const FIND_POSTED_PAGES = 5;

type Components = APIActionRowComponent<APIButtonComponent>[];

/** Files as discord.js uploads them (multipart, as `files[n]`). */
function attachmentsOf(files: OutgoingFile[] = []): AttachmentPayload[] {
  return files.map((file) => ({ attachment: Buffer.from(file.content, 'utf8'), name: file.name }));
}

/** How a message was posted, so an edit goes the same way. */
type PostedVia = { via: 'webhook'; webhookId: string } | { via: 'bot' };

/** Failures after which a preview cannot become the final message: it is gone or no longer ours to edit. */
const STALE_PREVIEW_FAILURES: DiscordFailure[] = ['unknown_message', 'unknown_webhook', 'not_editable', 'thread_closed'];

/** What ends a streaming preview's text (see StreamDraft). */
const PREVIEW_CURSOR = '▍';

/** No AI-written message may ping anyone. */
const NO_MENTIONS = { parse: [] } as const;

/** Posts persona messages and remembers how each preview was posted until it is finished. */
export class PersonaPoster {
  private readonly previews = new Map<string, PostedVia>();
  private readonly noticedChannels = new Set<string>();

  constructor(
    private readonly webhooks: WebhookRegistry,
    private readonly logger: Logger,
  ) {}

  /** Posts `text` as `speaker` (with `files` attached); the system speaker posts as the bot itself. */
  async post(
    target: RoomTarget,
    speaker: Speaker,
    text: string,
    components: Components,
    options: { preview?: boolean; files?: OutgoingFile[] } = {},
  ): Promise<Message> {
    const webhook = speaker.kind === 'system' ? null : await this.webhooks.forChannel(target.parent);
    if (webhook) {
      const message = await this.postThroughWebhook(target, webhook, speaker, text, components, options.files ?? []);
      if (options.preview) this.previews.set(message.id, { via: 'webhook', webhookId: message.webhookId ?? webhook.id });
      return message;
    }
    if (speaker.kind !== 'system') await this.noticeMissingWebhookPermission(target);
    const message = await target.room
      .send({ ...botBody(speaker, text), components, files: attachmentsOf(options.files), allowedMentions: NO_MENTIONS })
      .catch((error: unknown) => {
        throw toTransportError(error, 'post in the session thread', target.threadId ? 'Send Messages in Threads' : 'Send Messages');
      });
    if (options.preview) this.previews.set(message.id, { via: 'bot' });
    return message;
  }

  /** Edits a streaming message the way it was posted: through the webhook that posted it, or as the bot. */
  async edit(target: RoomTarget, messageId: string, speaker: Speaker, text: string, components: Components): Promise<void> {
    const origin = await this.originOf(target, messageId);
    if (origin.via === 'bot') return this.editAsBot(target, messageId, speaker, text, components);
    if (speaker.kind === 'system') throw notEditable('The bot cannot edit a message a webhook posted under another name.');
    const webhook = await this.postingWebhook(target, origin);
    if (!webhook)
      throw new DiscordTransportError(
        'not_found',
        'The message was posted through a webhook that no longer exists.',
        'unknown_webhook',
        true,
        RESTJSONErrorCodes.UnknownWebhook,
        404,
      );
    try {
      await webhook.editMessage(messageId, { content: text, threadId: target.threadId, components, allowedMentions: NO_MENTIONS });
    } catch (error) {
      if (isUnknownResource(error, RESTJSONErrorCodes.UnknownWebhook)) await this.webhooks.invalidate(target.parent.id, webhook.id);
      throw toTransportError(error, 'update a message');
    }
  }

  /**
   * Turns a preview into the first chunk. When the preview cannot show it (a persona's preview, a system notice),
   * or can no longer be edited, it is removed by whoever posted it and the chunk is posted anew.
   */
  async finishPreview(target: RoomTarget, previewId: string, speaker: Speaker, text: string, components: Components): Promise<string> {
    try {
      await this.edit(target, previewId, speaker, text, components);
      return previewId;
    } catch (error) {
      const transportError = toTransportError(error, 'finish a message');
      if (!STALE_PREVIEW_FAILURES.includes(transportError.failure)) throw transportError;
      this.logger.info({ previewId, failure: transportError.failure }, 'the preview cannot become this message; removing it and posting anew');
      if (transportError.failure !== 'unknown_message') await this.remove(target, previewId);
      return (await this.post(target, speaker, text, components)).id;
    } finally {
      this.previews.delete(previewId);
    }
  }

  /** Deletes a message the way it was posted; a message nobody of ours can delete any more is left and logged. */
  private async remove(target: RoomTarget, messageId: string): Promise<void> {
    try {
      await this.removeStale(target, messageId);
    } catch (error) {
      this.logger.warn({ messageId, error: String(error) }, 'could not remove a stale preview');
    }
  }

  /**
   * Deletes a stale preview the way it was posted (one already gone counts as deleted); other failures are thrown, so
   * the caller can try again. One nobody of ours may delete any more (its webhook gone, no Manage Messages) is left.
   */
  async removeStale(target: RoomTarget, messageId: string): Promise<void> {
    try {
      const origin = await this.originOf(target, messageId);
      const webhook = origin.via === 'webhook' ? await this.postingWebhook(target, origin) : null;
      if (webhook) return await webhook.deleteMessage(messageId, target.threadId);
      if (origin.via === 'bot' || canManageMessages(target)) return await target.room.messages.delete(messageId);
      this.logger.warn({ messageId }, 'a stale preview stays: its webhook is gone and the bot lacks Manage Messages');
    } catch (error) {
      const failure = toTransportError(error, 'remove a stale preview');
      if (failure.failure !== 'unknown_message') throw failure;
    } finally {
      this.previews.delete(messageId);
    }
  }

  /**
   * A message `speaker` already posted with exactly `text` in the room, or null: what an earlier run of a delivery
   * posted without recording it. Read from message `from.afterId` (the last part recorded), else from a minute before
   * `from.since` (Discord's clock is not ours), a few pages at most.
   */
  async findPosted(
    target: RoomTarget,
    speaker: Speaker,
    text: string,
    from: { afterId: string | null; since: Date },
    skip: readonly string[],
  ): Promise<string | null> {
    let after = from.afterId ?? SnowflakeUtil.generate({ timestamp: from.since.getTime() - 60_000 }).toString();
    const ours = await this.ourMessages(target);
    // A persona through the webhook under its name, or through the bot in an embed; the system as the bot, in plain text.
    const bySpeaker = (message: Message) =>
      message.webhookId
        ? speaker.kind !== 'system' && message.author.username === personaUsername(speaker)
        : (speaker.kind === 'system') === (message.embeds.length === 0);
    // Pages go forward from the starting point, so the first page with a match holds the earliest; a busy room may need
    // a few, and a bounded few: past them the message is posted again rather than a retry reading a whole history.
    for (let pageNumber = 0; pageNumber < FIND_POSTED_PAGES; pageNumber += 1) {
      const page = (await this.readBack(target, { after, limit: 100 }, 'read the room back before posting again')).sort(byId);
      const found = page.find((message) => !skip.includes(message.id) && ours(message) && bySpeaker(message) && shownText(message) === text);
      if (found) return found.id;
      const last = page.at(-1);
      if (page.length < 100 || !last) return null;
      after = last.id;
    }
    return null;
  }

  /**
   * Half-written previews of ours in the room's latest page that this process is not writing: left by a process that
   * died (or lost its database) before it could record them, so no sweep of recorded previews knows of them.
   */
  async strayPreviews(target: RoomTarget): Promise<string[]> {
    const page = await this.readBack(target, { limit: 50 }, 'read the room back for half-written answers');
    const ours = await this.ourMessages(target);
    return page
      .filter((message) => ours(message) && !this.previews.has(message.id) && shownText(message).trimEnd().endsWith(PREVIEW_CURSOR))
      .map((message) => message.id);
  }

  private async readBack(target: RoomTarget, query: { after?: string; limit: number }, action: string): Promise<Message[]> {
    const page = await target.room.messages.fetch(query).catch((error: unknown) => {
      throw toTransportError(error, action);
    });
    return [...page.values()];
  }

  /** Whether a message is ours: posted through the channel's webhook, or by the bot itself. */
  private async ourMessages(target: RoomTarget): Promise<(message: Message) => boolean> {
    const webhook = await this.webhooks.forChannel(target.parent);
    const self = target.parent.client.user?.id;
    return (message) => (message.webhookId ? message.webhookId === webhook?.id : message.author.id === self);
  }

  /** How a message was posted: remembered for previews of this process, otherwise read back from Discord. */
  private async originOf(target: RoomTarget, messageId: string): Promise<PostedVia> {
    const known = this.previews.get(messageId);
    if (known) return known;
    const message = await target.room.messages.fetch(messageId).catch((error: unknown) => {
      throw toTransportError(error, 'find a message to update');
    });
    return message.webhookId ? { via: 'webhook', webhookId: message.webhookId } : { via: 'bot' };
  }

  /** The channel's webhook when it is the one that posted the message (only that webhook may edit or delete it). */
  private async postingWebhook(target: RoomTarget, origin: { webhookId: string }): Promise<Webhook | null> {
    const webhook = await this.webhooks.forChannel(target.parent);
    return webhook?.id === origin.webhookId ? webhook : null;
  }

  private async postThroughWebhook(
    target: RoomTarget,
    webhook: Webhook,
    speaker: Speaker,
    text: string,
    components: Components,
    files: OutgoingFile[],
    retried = false,
  ): Promise<Message> {
    try {
      return await webhook.send({
        content: text,
        username: personaUsername(speaker),
        ...(speaker.avatarUrl ? { avatarURL: speaker.avatarUrl } : {}),
        ...(target.threadId ? { threadId: target.threadId } : {}),
        components,
        files: attachmentsOf(files),
        allowedMentions: NO_MENTIONS,
      });
    } catch (error) {
      if (!retried && isUnknownResource(error, RESTJSONErrorCodes.UnknownWebhook)) {
        // Someone deleted our webhook: make a new one and send through it once.
        await this.webhooks.invalidate(target.parent.id, webhook.id);
        const fresh = await this.webhooks.forChannel(target.parent);
        if (fresh) return this.postThroughWebhook(target, fresh, speaker, text, components, files, true);
        return this.post(target, speaker, text, components, { files });
      }
      throw toTransportError(error, 'post in the session thread');
    }
  }

  private async editAsBot(target: RoomTarget, messageId: string, speaker: Speaker, text: string, components: Components): Promise<void> {
    await target.room.messages.edit(messageId, { ...botBody(speaker, text), components, allowedMentions: NO_MENTIONS }).catch((error: unknown) => {
      throw toTransportError(error, 'update a message');
    });
  }

  /** Once per channel, says plainly which permission is missing and what it costs. */
  private async noticeMissingWebhookPermission(target: RoomTarget): Promise<void> {
    if (this.noticedChannels.has(target.parent.id)) return;
    this.noticedChannels.add(target.parent.id);
    const notice =
      `Heads-up: the bot is missing the **Manage Webhooks** permission in <#${target.parent.id}>, ` +
      'so participants speak through the bot with their name on top instead of under their own name and avatar. ' +
      'A server admin can grant it to fix this.';
    await target.room.send({ content: notice, allowedMentions: NO_MENTIONS }).catch((error: unknown) => {
      this.logger.warn({ channelId: target.parent.id, error: String(error) }, 'could not post the missing-permission notice');
    });
  }
}

/** The text a message shows: a webhook's or the system's content, or a persona's embed posted by the bot. */
function shownText(message: Message): string {
  return message.webhookId ? message.content : (message.embeds[0]?.description ?? message.content);
}

/** A bot message body: the system speaker as plain text, personas as an embed with their name and avatar. */
function botBody(speaker: Speaker, text: string): { content: string; embeds: ReturnType<typeof fallbackEmbed>[] } {
  return speaker.kind === 'system' ? { content: text, embeds: [] } : { content: '', embeds: [fallbackEmbed(speaker, text)] };
}

/** True when the bot may delete other people's messages in the room (Manage Messages, optional). */
function canManageMessages(target: RoomTarget): boolean {
  const me = target.parent.client.user;
  return me !== null && (target.parent.permissionsFor(me)?.has(PermissionFlagsBits.ManageMessages) ?? false);
}

function notEditable(message: string): DiscordTransportError {
  return new DiscordTransportError('not_found', message, 'not_editable', false, RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser, null);
}
