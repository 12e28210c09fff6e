/** Interaction callbacks (`/interactions/{id}/{token}/callback`) and the interaction webhook (`@original`, follow-ups). */
import { InteractionResponseType, InteractionType, MessageFlags, MessageType } from 'discord.js';
import { alreadyAcknowledged, invalidFormBody, unknownInteraction, unknownMessage, unknownWebhook } from './discord-errors.ts';
import type { FakeInteraction, RecordedMessage } from './fake-model.ts';
import type { Route, RouteContext, RouteResult } from './http-router.ts';
import { validateMessageBody } from './message-rules.ts';
import { messagePayload } from './payloads.ts';
import type { RouteDeps } from './route-deps.ts';

/** An interaction token stays valid this long (Discord: 15 minutes). */
const TOKEN_LIFETIME_MS = 15 * 60_000;

/** The callback route: the first (and only) response to an interaction, within the deadline. */
export function interactionCallbackRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/interactions/:interactionId/:token/callback',
      name: 'interaction.callback',
      auth: 'none',
      major: 'interactionId',
      handler: (context) => respond(deps, context),
    },
  ];
}

/** Handles `/webhooks/{application}/{token}...` for interactions (dispatched from the webhook routes). */
export function interactionWebhookRoutes(deps: RouteDeps): { handle(name: string, context: RouteContext): RouteResult } {
  return {
    handle(name, { params, body }) {
      const interaction = byToken(deps, params['token'] ?? '');
      if (!interaction.acknowledged) throw unknownWebhook();
      if (name === 'webhook.execute') return { body: messagePayload(followUp(deps, interaction, body), deps.state, false) };
      const record = responseMessage(deps, interaction, params['messageId'] ?? '');
      if (name === 'webhook.message.get') return { body: messagePayload(record, deps.state, false) };
      if (name === 'webhook.message.delete') {
        deps.state.deleteMessage(record);
        interaction.responses.push({ kind: 'delete_original', ephemeral: interaction.ephemeral, atMs: Date.now() });
        return undefined;
      }
      const valid = validateMessageBody(body, { partial: true });
      deps.state.editMessage(record, { ...valid, flags: record.flags & ~MessageFlags.Loading });
      interaction.responses.push({
        kind: 'edit_original',
        content: record.content,
        ephemeral: (record.flags & MessageFlags.Ephemeral) !== 0,
        atMs: Date.now(),
      });
      return { body: messagePayload(record, deps.state, false) };
    },
  };
}

function respond(deps: RouteDeps, { params, body, query }: RouteContext): RouteResult {
  const interaction = deps.state.interactions.get(params['interactionId'] ?? '');
  if (!interaction || interaction.token !== params['token']) throw unknownInteraction();
  if (interaction.acknowledged) throw alreadyAcknowledged();
  if (Date.now() - interaction.dispatchedAtMs > deps.interactionDeadlineMs) throw unknownInteraction();
  const type = Number(body['type']);
  const data = (body['data'] ?? {}) as Record<string, unknown>;
  const flags = typeof data['flags'] === 'number' ? data['flags'] : 0;
  interaction.acknowledged = true;
  interaction.ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
  let record: RecordedMessage | null = null;
  if (type === InteractionResponseType.ChannelMessageWithSource || type === InteractionResponseType.DeferredChannelMessageWithSource) {
    const deferred = type === InteractionResponseType.DeferredChannelMessageWithSource;
    const valid = deferred ? {} : validateMessageBody(data, { partial: false });
    record = deps.state.createMessage({
      channelId: interaction.payload.channel?.id ?? '',
      origin: 'interaction',
      authorId: deps.botUserId,
      webhookId: deps.state.applicationId,
      content: '',
      ...valid,
      flags: flags | (deferred ? MessageFlags.Loading : 0),
      type: interaction.payload.type === InteractionType.ApplicationCommand ? MessageType.ChatInputCommand : MessageType.Default,
      interactionId: interaction.id,
    });
    interaction.originalMessageId = record.id;
  } else if (type === InteractionResponseType.UpdateMessage || type === InteractionResponseType.DeferredMessageUpdate) {
    // A component's interaction: `@original` is then the message the component is on (Discord's docs).
    if (interaction.payload.type !== InteractionType.MessageComponent)
      throw invalidFormBody([{ path: 'type', code: 'INTERACTION_RESPONSE_TYPE_INVALID', message: 'Invalid interaction response type' }]);
    const messageId = interaction.payload.message?.id ?? '';
    const target = deps.state.findMessage(messageId);
    if (!target) throw unknownMessage();
    interaction.originalMessageId = target.id;
    if (type === InteractionResponseType.UpdateMessage) deps.state.editMessage(target, validateMessageBody(data, { partial: true }));
  }
  interaction.responses.push({ kind: 'callback', callbackType: type, content: record?.content ?? '', ephemeral: interaction.ephemeral, atMs: Date.now() });
  deps.state.changed();
  if (query.get('with_response') !== 'true') return undefined;
  return {
    body: {
      interaction: {
        id: interaction.id,
        type: interaction.payload.type,
        response_message_id: record?.id,
        response_message_loading: type === InteractionResponseType.DeferredChannelMessageWithSource,
        response_message_ephemeral: interaction.ephemeral,
      },
      resource: { type, ...(record ? { message: messagePayload(record, deps.state, false) } : {}) },
    },
  };
}

function byToken(deps: RouteDeps, token: string): FakeInteraction {
  const interaction = [...deps.state.interactions.values()].find((entry) => entry.token === token);
  if (!interaction || Date.now() - interaction.dispatchedAtMs > TOKEN_LIFETIME_MS) throw unknownWebhook();
  return interaction;
}

function responseMessage(deps: RouteDeps, interaction: FakeInteraction, messageId: string): RecordedMessage {
  const id = messageId === '@original' ? interaction.originalMessageId : messageId;
  const record = id ? deps.state.findMessage(id) : undefined;
  const componentMessage = messageId === '@original' && record?.id === interaction.payload.message?.id;
  if (!record || record.deleted || (record.interactionId !== interaction.id && !componentMessage)) throw unknownMessage();
  return record;
}

function followUp(deps: RouteDeps, interaction: FakeInteraction, body: Record<string, unknown>): RecordedMessage {
  const valid = validateMessageBody(body, { partial: false });
  const flags = valid.flags ?? 0;
  const record = deps.state.createMessage({
    channelId: interaction.payload.channel?.id ?? '',
    origin: 'interaction',
    authorId: deps.botUserId,
    webhookId: deps.state.applicationId,
    content: '',
    ...valid,
    flags,
    interactionId: interaction.id,
  });
  interaction.responses.push({ kind: 'followup', content: record.content, ephemeral: (flags & MessageFlags.Ephemeral) !== 0, atMs: Date.now() });
  return record;
}
