/** Posts and edits one speaker's messages: through the channel webhook, or as the bot with an embed author. */
import { RESTJSONErrorCodes, type APIActionRowComponent, type APIButtonComponent, type Message, type NewsChannel, type TextChannel, type ThreadChannel, type Webhook } from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import type { Speaker } from '../services/domain.ts';
import { DiscordTransportError, isUnknownResource, toTransportError, type DiscordFailure } from './discord-errors.ts';
import { fallbackEmbed, personaUsername } from './message-format.ts';
import type { WebhookRegistry } from './webhook-registry.ts';

/** Where a room's messages go: the thread (or channel) and the parent channel that owns the webhook. */
export interface RoomTarget {
  room: ThreadChannel | TextChannel | NewsChannel;
  parent: TextChannel | NewsChannel;
  threadId: string | undefined;
}

type Components = APIActionRowComponent<APIButtonComponent>[];

/** How a message was posted, so an edit goes the same way. */
type PostedVia = { via: 'webhook'; webhookId: string } | { via: 'bot' };

/** Failures after which a preview cannot become the final message: it is gone or no longer ours to edit. */
const STALE_PREVIEW_FAILURES: DiscordFailure[] = ['unknown_message', 'unknown_webhook', 'not_editable'];

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

  /** Posts `text` as `speaker`; the system speaker posts as the bot itself. */
  async post(target: RoomTarget, speaker: Speaker, text: string, components: Components, options: { preview?: boolean } = {}): Promise<Message> {
    const webhook = speaker.kind === 'system' ? null : await this.webhooks.forChannel(target.parent);
    if (webhook) {
      const message = await this.postThroughWebhook(target, webhook, speaker, text, components);
      if (options.preview) this.previews.set(message.id, { via: 'webhook', webhookId: message.webhookId ?? webhook.id });
      return message;
    }
    if (speaker.kind !== 'system') await this.noticeMissingWebhookPermission(target);
    const message = await target.room.send({ ...botBody(speaker, text), components, allowedMentions: NO_MENTIONS }).catch((error: unknown) => {
      throw toTransportError(error, 'post in the session thread', target.threadId ? 'Send Messages in Threads' : 'Send Messages');
    });
    if (options.preview) this.previews.set(message.id, { via: 'bot' });
    return message;
  }

  /** Edits a message this process posted (or, after a restart, whichever way works). */
  async edit(target: RoomTarget, messageId: string, speaker: Speaker, text: string, components: Components): Promise<void> {
    const known = this.previews.get(messageId);
    if (known?.via === 'bot' || speaker.kind === 'system') return this.editAsBot(target, messageId, speaker, text, components);
    const webhook = await this.webhooks.forChannel(target.parent);
    if (webhook && (!known || known.webhookId === webhook.id)) {
      try {
        await webhook.editMessage(messageId, { content: text, threadId: target.threadId, components, allowedMentions: NO_MENTIONS });
        return;
      } catch (error) {
        if (isUnknownResource(error, RESTJSONErrorCodes.UnknownWebhook)) await this.webhooks.invalidate(target.parent.id, webhook.id);
        if (known || !isUnknownResource(error)) throw toTransportError(error, 'update a message');
      }
    }
    if (known) throw new DiscordTransportError('not_found', 'The message was posted through a webhook that no longer exists.', 'unknown_webhook', true, RESTJSONErrorCodes.UnknownWebhook, 404);
    await this.editAsBot(target, messageId, speaker, text, components);
  }

  /** Turns a preview into the first chunk; when the preview cannot be edited any more, posts the chunk anew. */
  async finishPreview(target: RoomTarget, previewId: string, speaker: Speaker, text: string, components: Components): Promise<string> {
    try {
      await this.edit(target, previewId, speaker, text, components);
      return previewId;
    } catch (error) {
      const transportError = toTransportError(error, 'finish a message');
      if (!STALE_PREVIEW_FAILURES.includes(transportError.failure)) throw transportError;
      this.logger.warn({ previewId, failure: transportError.failure }, 'preview can no longer be edited; posting the final text as a new message');
      await target.room.messages.delete(previewId).catch(() => undefined);
      return (await this.post(target, speaker, text, components)).id;
    } finally {
      this.previews.delete(previewId);
    }
  }

  private async postThroughWebhook(target: RoomTarget, webhook: Webhook, speaker: Speaker, text: string, components: Components, retried = false): Promise<Message> {
    try {
      return await webhook.send({
        content: text,
        username: personaUsername(speaker),
        ...(speaker.avatarUrl ? { avatarURL: speaker.avatarUrl } : {}),
        ...(target.threadId ? { threadId: target.threadId } : {}),
        components,
        allowedMentions: NO_MENTIONS,
      });
    } catch (error) {
      if (!retried && isUnknownResource(error, RESTJSONErrorCodes.UnknownWebhook)) {
        // Someone deleted our webhook: make a new one and send through it once.
        await this.webhooks.invalidate(target.parent.id, webhook.id);
        const fresh = await this.webhooks.forChannel(target.parent);
        if (fresh) return this.postThroughWebhook(target, fresh, speaker, text, components, true);
        return this.post(target, speaker, text, components);
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

/** A bot message body: the system speaker as plain text, personas as an embed with their name and avatar. */
function botBody(speaker: Speaker, text: string): { content: string; embeds: ReturnType<typeof fallbackEmbed>[] } {
  return speaker.kind === 'system' ? { content: text, embeds: [] } : { content: '', embeds: [fallbackEmbed(speaker, text)] };
}
