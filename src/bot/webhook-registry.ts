/** One persona webhook per parent channel: found or created on first use, cached, recreated when Discord drops it. */
import type { ForumChannel, NewsChannel, TextChannel, Webhook } from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import type { Clock } from '../core/clock.ts';
import { isMissingPermissions, toTransportError } from './discord-errors.ts';

/** A channel that can hold webhooks (a forum's serve the threads of its posts). */
export type WebhookChannel = TextChannel | NewsChannel | ForumChannel;

/** Options of the registry. */
export interface WebhookRegistryOptions {
  clock: Clock;
  logger: Logger;
  /** Our application id (webhooks we created carry it), known once the client is ready. */
  applicationId(): string | null;
  /** The webhook's own name (each message overrides it with the persona's). */
  webhookName: string;
  /** After a Missing Permissions refusal, how long to use the fallback before asking Discord again. */
  recheckDeniedAfterMs: number;
}

/** Caches the webhook of each channel; `null` means the bot may not manage webhooks there (use the fallback). */
export class WebhookRegistry {
  private readonly webhooks = new Map<string, Promise<Webhook | null>>();
  private readonly deniedAt = new Map<string, number>();

  constructor(private readonly options: WebhookRegistryOptions) {}

  /** The channel's webhook, or null when the bot lacks Manage Webhooks there. */
  forChannel(channel: WebhookChannel): Promise<Webhook | null> {
    const denied = this.deniedAt.get(channel.id);
    if (denied !== undefined && this.options.clock.now().getTime() - denied < this.options.recheckDeniedAfterMs) return Promise.resolve(null);
    let pending = this.webhooks.get(channel.id);
    if (!pending) {
      pending = this.findOrCreate(channel);
      this.webhooks.set(channel.id, pending);
      pending.then(
        (webhook) => webhook === null && this.webhooks.delete(channel.id),
        () => this.webhooks.delete(channel.id),
      );
    }
    return pending;
  }

  /** True when the last attempt in this channel was refused for lack of Manage Webhooks. */
  isDenied(channelId: string): boolean {
    return this.deniedAt.has(channelId);
  }

  /** Forgets a webhook Discord says is gone (10015), so the next message creates a fresh one. */
  async invalidate(channelId: string, webhookId: string): Promise<void> {
    const pending = this.webhooks.get(channelId);
    const current = pending ? await pending.catch(() => null) : null;
    if (current?.id === webhookId && this.webhooks.get(channelId) === pending) this.webhooks.delete(channelId);
  }

  private async findOrCreate(channel: WebhookChannel): Promise<Webhook | null> {
    try {
      const existing = await channel.fetchWebhooks();
      this.deniedAt.delete(channel.id);
      const applicationId = this.options.applicationId();
      const ours = existing.find((webhook) => webhook.token !== null && applicationId !== null && webhook.applicationId === applicationId);
      if (ours) return ours;
      const created = await channel.createWebhook({ name: this.options.webhookName, reason: 'Brainstorm: participants post under their own names' });
      this.options.logger.info({ channelId: channel.id, webhookId: created.id }, 'created persona webhook');
      return created;
    } catch (error) {
      if (isMissingPermissions(error)) {
        this.deniedAt.set(channel.id, this.options.clock.now().getTime());
        this.options.logger.warn({ channelId: channel.id }, 'missing Manage Webhooks: personas fall back to bot messages with an embed author');
        return null;
      }
      throw toTransportError(error, 'set up the persona webhook', 'Manage Webhooks');
    }
  }
}
