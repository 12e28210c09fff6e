/** REST routes for channels, messages, threads and typing. */
import { PermissionFlagsBits } from 'discord.js';
import { DiscordHttpError, invalidFormBody, threadAlreadyCreated } from './discord-errors.ts';
import type { FakeChannel } from './fake-model.ts';
import { channelPayload, messagePayload } from './payloads.ts';
import type { Route } from './http-router.ts';
import { historyPage, parseHistoryQuery } from './message-history.ts';
import { validateAutoArchive, validateMessageBody, validateThreadName } from './message-rules.ts';
import { requireBotPermission, sendPermissionFor, type RouteDeps } from './route-deps.ts';
import { uploadedAttachments } from './uploads.ts';

/** Channel, message, thread and typing routes (bot auth). */
export function channelRoutes(deps: RouteDeps): Route[] {
  const { state } = deps;
  const bot = (method: string, pattern: string, name: string, handler: Route['handler']): Route => ({
    method,
    pattern,
    name,
    auth: 'bot',
    major: 'channelId',
    handler,
  });
  return [
    bot('GET', '/channels/:channelId', 'channel.get', ({ params }) => ({
      body: channelPayload(state.requireChannel(params['channelId'] ?? '')),
    })),
    bot('GET', '/channels/:channelId/messages', 'message.list', ({ params, query }) => {
      const channel = state.requireChannel(params['channelId'] ?? '');
      const page = historyPage(state.messages, channel, parseHistoryQuery(query), state.permissionsOf(deps.botUserId));
      return { body: page.map((message) => messagePayload(message, state, false)) };
    }),
    bot('GET', '/channels/:channelId/messages/:messageId', 'message.get', ({ params }) => ({
      body: messagePayload(state.requireMessage(params['channelId'] ?? '', params['messageId'] ?? ''), state, false),
    })),
    bot('POST', '/channels/:channelId/messages', 'message.create', ({ params, body }) => {
      const channel = state.requireChannel(params['channelId'] ?? '');
      requireBotPermission(deps, sendPermissionFor(channel));
      const valid = validateMessageBody(body, { partial: false });
      const attachments = uploadedAttachments(state, channel.id, body);
      const record = state.createMessage({ channelId: channel.id, origin: 'bot', authorId: deps.botUserId, content: '', ...valid, attachments, flags: 0 });
      return { body: messagePayload(record, state, false) };
    }),
    bot('PATCH', '/channels/:channelId/messages/:messageId', 'message.edit', ({ params, body }) => {
      const record = state.requireMessage(params['channelId'] ?? '', params['messageId'] ?? '');
      if (record.authorId !== deps.botUserId || record.webhookId) throw new DiscordHttpError(403, 50005, 'Cannot edit a message authored by another user');
      state.editMessage(record, validateMessageBody(body, { partial: true }));
      return { body: messagePayload(record, state, false) };
    }),
    bot('DELETE', '/channels/:channelId/messages/:messageId', 'message.delete', ({ params }) => {
      const record = state.requireMessage(params['channelId'] ?? '', params['messageId'] ?? '');
      if (record.authorId !== deps.botUserId) requireBotPermission(deps, PermissionFlagsBits.ManageMessages);
      state.deleteMessage(record);
      return undefined;
    }),
    bot('POST', '/channels/:channelId/messages/:messageId/threads', 'thread.create_from_message', ({ params, body }) => {
      const parent = state.requireChannel(params['channelId'] ?? '');
      const starter = state.requireMessage(parent.id, params['messageId'] ?? '');
      if (parent.kind === 'thread') throw new DiscordHttpError(400, 50024, 'Cannot execute action on this channel type');
      requireBotPermission(deps, PermissionFlagsBits.CreatePublicThreads);
      if (starter.threadId) throw threadAlreadyCreated();
      const thread = state.createThread(parent, starter, validateThreadName(body['name']), validateAutoArchive(body['auto_archive_duration']), deps.botUserId);
      return { status: 201, body: channelPayload(thread) };
    }),
    bot('POST', '/channels/:channelId/threads', 'thread.create', ({ params, body }) => {
      const parent = state.requireChannel(params['channelId'] ?? '');
      if (parent.kind === 'forum') return forumPost(deps, parent, body);
      requireBotPermission(deps, PermissionFlagsBits.CreatePublicThreads);
      const thread = state.createThread(parent, null, validateThreadName(body['name']), validateAutoArchive(body['auto_archive_duration']), deps.botUserId);
      return { status: 201, body: channelPayload(thread) };
    }),
    bot('PUT', '/channels/:channelId/thread-members/@me', 'thread.join', ({ params }) => {
      state.requireChannel(params['channelId'] ?? '');
      return undefined;
    }),
    bot('POST', '/channels/:channelId/typing', 'channel.typing', ({ params }) => {
      const channel = state.requireChannel(params['channelId'] ?? '');
      requireBotPermission(deps, sendPermissionFor(channel));
      state.typing.push({ channelId: channel.id, atMs: Date.now() });
      state.changed();
      return undefined;
    }),
  ];
}

/** A post the bot opens in a forum: Send Messages (Create Posts) there, a first message, which takes the thread's id. */
function forumPost(deps: RouteDeps, forum: FakeChannel, body: Record<string, unknown>): { status: number; body: unknown } {
  requireBotPermission(deps, PermissionFlagsBits.SendMessages);
  const message = body['message'];
  if (typeof message !== 'object' || message === null)
    throw invalidFormBody([{ path: 'message', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }]);
  const content = validateMessageBody(message as Record<string, unknown>, { partial: false }).content ?? '';
  const thread = deps.state.createThread(
    forum,
    null,
    validateThreadName(body['name']),
    validateAutoArchive(body['auto_archive_duration'] ?? 1440),
    deps.botUserId,
  );
  const starter = deps.state.createMessage({ id: thread.id, channelId: thread.id, origin: 'bot', authorId: deps.botUserId, content });
  return { status: 201, body: { ...channelPayload(thread), message: messagePayload(starter, deps.state, false) } };
}
