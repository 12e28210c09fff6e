/** Turns the fake's records into the JSON objects Discord sends (REST bodies and gateway dispatches). */
import {
  ChannelType,
  GuildMemberFlags,
  RoleFlags,
  type APIGuildMember,
  type APIMessage,
  type APIRole,
  type APIUser,
  type APIWebhook,
  WebhookType,
} from 'discord.js';
import type { FakeChannel, FakeMember, FakeRole, FakeUser, FakeWebhook, RecordedMessage } from './fake-model.ts';
import type { FakeDiscordState } from './fake-state.ts';

/** A user object. */
export function userPayload(user: FakeUser): APIUser {
  return { id: user.id, username: user.username, discriminator: '0', global_name: user.globalName, avatar: user.avatar, bot: user.bot };
}

/** A role object. */
export function rolePayload(role: FakeRole): APIRole {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: false,
    mentionable: false,
    flags: 0 as RoleFlags,
  };
}

/** A guild member object (with its user). */
export function memberPayload(member: FakeMember, user: FakeUser): APIGuildMember {
  return {
    user: userPayload(user),
    nick: null,
    avatar: null,
    banner: null,
    roles: member.roleIds,
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

/** A guild text channel or public thread object. */
export function channelPayload(channel: FakeChannel): Record<string, unknown> {
  const guildId = channel.guildId;
  if (channel.kind === 'voice') return { ...channelPayload({ ...channel, kind: 'text' }), type: ChannelType.GuildVoice, bitrate: 64_000, user_limit: 0 };
  if (channel.kind === 'forum') {
    return { ...channelPayload({ ...channel, kind: 'text' }), type: ChannelType.GuildForum, available_tags: [], default_forum_layout: 0 };
  }
  if (channel.kind === 'text') {
    return {
      id: channel.id,
      type: ChannelType.GuildText,
      guild_id: guildId,
      name: channel.name,
      position: 0,
      parent_id: null,
      permission_overwrites: [],
      topic: null,
      nsfw: false,
      last_message_id: channel.lastMessageId,
      rate_limit_per_user: 0,
      flags: 0,
    };
  }
  return {
    id: channel.id,
    type: ChannelType.PublicThread,
    guild_id: guildId,
    parent_id: channel.parentId,
    owner_id: channel.ownerId,
    name: channel.name,
    last_message_id: channel.lastMessageId,
    message_count: channel.messageCount,
    total_message_sent: channel.messageCount,
    member_count: 1,
    rate_limit_per_user: 0,
    flags: 0,
    applied_tags: [],
    thread_metadata: {
      archived: channel.archived === true,
      auto_archive_duration: channel.autoArchiveDuration,
      archive_timestamp: channel.createdAt,
      locked: channel.locked === true,
      create_timestamp: channel.createdAt,
    },
  };
}

/** A webhook object; the token only goes to whoever may see it (the creator, the channel's managers). */
export function webhookPayload(webhook: FakeWebhook, state: FakeDiscordState, withToken: boolean): APIWebhook {
  const creator = state.users.get(webhook.creatorId);
  return {
    id: webhook.id,
    type: WebhookType.Incoming,
    guild_id: state.guildOf(webhook.channelId),
    channel_id: webhook.channelId,
    name: webhook.name,
    avatar: webhook.avatar,
    application_id: webhook.applicationId,
    ...(withToken ? { token: webhook.token } : {}),
    ...(creator ? { user: userPayload(creator) } : {}),
  };
}

/** A message object; `forGateway` adds `guild_id` and the author's `member` as MESSAGE_CREATE does. */
export function messagePayload(record: RecordedMessage, state: FakeDiscordState, forGateway: boolean): APIMessage {
  const author = authorOf(record, state);
  const channel = state.channels.get(record.channelId);
  const thread = record.threadId ? state.channels.get(record.threadId) : undefined;
  const mentions = record.mentions.userIds.map((id) => state.users.get(id)).filter((user): user is FakeUser => user !== undefined);
  const payload: APIMessage & { guild_id?: string; member?: Omit<APIGuildMember, 'user'> } = {
    id: record.id,
    channel_id: record.channelId,
    author,
    content: record.content,
    timestamp: record.createdAt,
    edited_timestamp: record.editedAt,
    tts: false,
    mention_everyone: record.mentions.everyone,
    mentions: mentions.map(userPayload),
    mention_roles: record.mentions.roleIds,
    attachments: record.attachments,
    embeds: record.embeds,
    pinned: false,
    type: record.type,
    flags: record.flags,
    components: record.components as APIMessage['components'],
    ...(record.webhookId ? { webhook_id: record.webhookId } : {}),
    ...(record.origin === 'webhook' || record.origin === 'interaction' ? { application_id: state.applicationId } : {}),
    ...(channel?.kind === 'thread' ? { position: channel.messageCount - 1 } : {}),
    ...(thread ? { thread: channelPayload(thread) as unknown as APIMessage['thread'] } : {}),
    ...referencePayload(record, state),
  };
  if (forGateway) {
    payload.guild_id = state.guildOf(record.channelId);
    const member = record.origin === 'webhook' ? undefined : state.members.get(record.authorId);
    if (member) {
      const { user: _user, ...memberWithoutUser } = memberPayload(member, state.requireUser(member.userId));
      payload.member = memberWithoutUser;
    }
  }
  return payload;
}

function authorOf(record: RecordedMessage, state: FakeDiscordState): APIUser {
  if (record.webhookId && record.origin === 'webhook') {
    // Discord shows a webhook message's author as a pseudo-user with the webhook id and per-message name.
    return {
      id: record.webhookId,
      username: record.displayName,
      discriminator: '0000',
      global_name: null,
      avatar: record.avatarUrl ? 'webhook-avatar' : null,
      bot: true,
    };
  }
  return userPayload(state.requireUser(record.authorId));
}

/** A reply's `message_reference`, and the message it answers as Discord embeds it (`referenced_message`, one level). */
function referencePayload(record: RecordedMessage, state: FakeDiscordState): Pick<APIMessage, 'message_reference' | 'referenced_message'> {
  if (!record.referenceId) return {};
  const referenced = state.findMessage(record.referenceId);
  return {
    message_reference: { type: 0, message_id: record.referenceId, channel_id: record.channelId, guild_id: state.guildOf(record.channelId) },
    referenced_message: referenced && !referenced.deleted ? messagePayload({ ...referenced, referenceId: null }, state, false) : null,
  };
}
