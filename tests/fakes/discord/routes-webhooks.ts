/** REST routes for webhooks: create/list/delete, execute (with `wait` and `thread_id`), and edit their messages. */
import { randomBytes } from 'node:crypto';
import { PermissionFlagsBits } from 'discord.js';
import { DiscordHttpError, invalidWebhookToken, unknownChannel, unknownMessage, unknownWebhook } from './discord-errors.ts';
import type { FakeChannel, FakeWebhook, RecordedMessage } from './fake-model.ts';
import type { Route, RouteContext, RouteResult } from './http-router.ts';
import { validateMessageBody, validateWebhookName } from './message-rules.ts';
import { messagePayload, webhookPayload } from './payloads.ts';
import { requireBotPermission, type RouteDeps } from './route-deps.ts';
import { interactionWebhookRoutes } from './routes-interactions.ts';
import { uploadedAttachments } from './uploads.ts';

/** At most this many webhooks per channel (Discord: 15). */
const MAX_WEBHOOKS_PER_CHANNEL = 15;

/** Webhook routes; interaction follow-up routes share `/webhooks/{application}/{token}` and are tried first. */
export function webhookRoutes(deps: RouteDeps): Route[] {
  const { state } = deps;
  const interactions = interactionWebhookRoutes(deps);
  const byToken = (method: string, pattern: string, name: string, handler: Route['handler']): Route => ({
    method,
    pattern,
    name,
    auth: 'none',
    major: 'webhookId',
    handler: (context) => (context.params['webhookId'] === state.applicationId ? interactions.handle(name, context) : handler(context)),
  });
  return [
    {
      method: 'POST',
      pattern: '/channels/:channelId/webhooks',
      name: 'webhook.create',
      auth: 'bot',
      major: 'channelId',
      handler: ({ params, body }) => createWebhook(deps, params['channelId'] ?? '', body),
    },
    {
      method: 'GET',
      pattern: '/channels/:channelId/webhooks',
      name: 'webhook.list',
      auth: 'bot',
      major: 'channelId',
      handler: ({ params }) => {
        const channel = state.requireChannel(params['channelId'] ?? '');
        requireBotPermission(deps, PermissionFlagsBits.ManageWebhooks);
        const hooks = [...state.webhooks.values()].filter((hook) => hook.channelId === channel.id && !hook.deleted);
        return { body: hooks.map((hook) => webhookPayload(hook, state, hook.applicationId === state.applicationId)) };
      },
    },
    {
      method: 'DELETE',
      pattern: '/webhooks/:webhookId',
      name: 'webhook.delete',
      auth: 'bot',
      major: 'webhookId',
      handler: ({ params }) => {
        requireBotPermission(deps, PermissionFlagsBits.ManageWebhooks);
        liveWebhook(deps, params['webhookId'] ?? '').deleted = true;
        state.changed();
        return undefined;
      },
    },
    byToken('GET', '/webhooks/:webhookId/:token', 'webhook.get', ({ params }) => ({ body: webhookPayload(authorised(deps, params), state, false) })),
    byToken('POST', '/webhooks/:webhookId/:token', 'webhook.execute', (context) => executeWebhook(deps, context)),
    byToken('GET', '/webhooks/:webhookId/:token/messages/:messageId', 'webhook.message.get', ({ params, query }) => {
      const record = webhookMessage(deps, authorised(deps, params), params['messageId'] ?? '', query);
      return { body: messagePayload(record, state, false) };
    }),
    byToken('PATCH', '/webhooks/:webhookId/:token/messages/:messageId', 'webhook.message.edit', ({ params, query, body }) => {
      const record = webhookMessage(deps, authorised(deps, params), params['messageId'] ?? '', query);
      state.editMessage(record, validateMessageBody(body, { partial: true }));
      return { body: messagePayload(record, state, false) };
    }),
    byToken('DELETE', '/webhooks/:webhookId/:token/messages/:messageId', 'webhook.message.delete', ({ params, query }) => {
      state.deleteMessage(webhookMessage(deps, authorised(deps, params), params['messageId'] ?? '', query));
      return undefined;
    }),
  ];
}

/** Creates a webhook as the bot (an application-owned webhook, so it may post buttons). */
function createWebhook(deps: RouteDeps, channelId: string, body: Record<string, unknown>): RouteResult {
  const { state } = deps;
  const channel = state.requireChannel(channelId);
  if (channel.kind === 'thread') throw new DiscordHttpError(400, 50024, 'Cannot execute action on this channel type');
  requireBotPermission(deps, PermissionFlagsBits.ManageWebhooks);
  const name = validateWebhookName(body['name'], 'name');
  const existing = [...state.webhooks.values()].filter((hook) => hook.channelId === channel.id && !hook.deleted);
  if (existing.length >= MAX_WEBHOOKS_PER_CHANNEL) throw new DiscordHttpError(400, 30007, 'Maximum number of webhooks reached (15)');
  const hook: FakeWebhook = {
    id: state.ids.next(),
    token: randomBytes(24).toString('base64url'),
    channelId: channel.id,
    name,
    avatar: null,
    applicationId: state.applicationId,
    creatorId: deps.botUserId,
    deleted: false,
  };
  state.webhooks.set(hook.id, hook);
  state.changed();
  return { body: webhookPayload(hook, state, true) };
}

/** Executes a webhook: per-message username/avatar, `thread_id` into a child thread, `wait` for the message. */
function executeWebhook(deps: RouteDeps, { params, query, body }: RouteContext): RouteResult {
  const { state } = deps;
  const hook = authorised(deps, params);
  const target = targetChannel(deps, hook, query);
  const username = body['username'] === undefined ? hook.name : validateWebhookName(body['username'], 'username');
  const valid = validateMessageBody(body, { partial: false });
  const components = valid.components ?? [];
  if (components.length > 0 && hook.applicationId === null && query.get('with_components') !== 'true') {
    throw new DiscordHttpError(400, 50035, 'Invalid Form Body', {
      components: { _errors: [{ code: 'COMPONENT_INVALID', message: 'Interactive components need an application-owned webhook' }] },
    });
  }
  const record = state.createMessage({
    channelId: target.id,
    origin: 'webhook',
    authorId: hook.id,
    webhookId: hook.id,
    displayName: username,
    avatarUrl: typeof body['avatar_url'] === 'string' ? body['avatar_url'] : null,
    content: '',
    ...valid,
    attachments: uploadedAttachments(state, target.id, body),
    flags: 0,
  });
  return query.get('wait') === 'true' ? { body: messagePayload(record, state, false) } : undefined;
}

/** A live webhook whose token matches, or 10015 / 50027. */
function authorised(deps: RouteDeps, params: Record<string, string>): FakeWebhook {
  const hook = liveWebhook(deps, params['webhookId'] ?? '');
  if (hook.token !== params['token']) throw invalidWebhookToken();
  return hook;
}

function liveWebhook(deps: RouteDeps, webhookId: string): FakeWebhook {
  const hook = deps.state.webhooks.get(webhookId);
  if (!hook || hook.deleted) throw unknownWebhook();
  return hook;
}

/** The webhook's channel, or the thread named by `thread_id`, which must be a child of that channel. */
function targetChannel(deps: RouteDeps, hook: FakeWebhook, query: URLSearchParams): FakeChannel {
  const threadId = query.get('thread_id');
  if (!threadId) return deps.state.requireChannel(hook.channelId);
  const thread = deps.state.channels.get(threadId);
  if (!thread || thread.kind !== 'thread' || thread.parentId !== hook.channelId) throw unknownChannel();
  return thread;
}

/** A message this webhook posted (in the channel or the `thread_id` thread), or 10008. */
function webhookMessage(deps: RouteDeps, hook: FakeWebhook, messageId: string, query: URLSearchParams): RecordedMessage {
  const target = targetChannel(deps, hook, query);
  const record = deps.state.findMessage(messageId);
  if (!record || record.deleted || record.webhookId !== hook.id || record.channelId !== target.id) throw unknownMessage();
  return record;
}
