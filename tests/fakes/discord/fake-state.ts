/** The fake Discord's world: its guilds (one unless a test adds more), people, channels, threads, messages, webhooks and interactions. */
import { EventEmitter } from 'node:events';
import { GatewayDispatchEvents, MessageFlags, MessageType, PermissionFlagsBits, type APIAllowedMentions, type APIAttachment, type APIEmbed } from 'discord.js';
import { unknownChannel, unknownMessage } from './discord-errors.ts';
import type {
  FakeChannel,
  FakeGuild,
  FakeInteraction,
  FakeMember,
  FakeRole,
  FakeUser,
  FakeWebhook,
  MessageOrigin,
  RecordedMessage,
  RegisteredCommand,
} from './fake-model.ts';
import { resolveMentions } from './mentions.ts';
import { admitEdit, admitSend } from './thread-lifecycle.ts';
import { channelPayload, memberPayload, messagePayload, rolePayload } from './payloads.ts';
import { SnowflakeGenerator } from './snowflakes.ts';

/** Every permission bit: what the owner and administrators have. */
const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/** What a new message needs; the state fills ids, order, times and mentions. */
export interface NewMessage {
  /** Given for a forum post's first message, whose id is its thread's. */
  id?: string;
  channelId: string;
  origin: MessageOrigin;
  authorId: string;
  displayName?: string;
  avatarUrl?: string | null;
  webhookId?: string | null;
  content: string;
  embeds?: APIEmbed[];
  attachments?: APIAttachment[];
  components?: unknown[];
  allowedMentions?: APIAllowedMentions | null;
  flags?: number;
  type?: MessageType;
  interactionId?: string | null;
  /** The message a reply answers. */
  referenceId?: string | null;
}

/** The mutable world behind the REST routes and the gateway. Emits `change` after every mutation. */
export class FakeDiscordState {
  readonly ids = new SnowflakeGenerator();
  readonly events = new EventEmitter();
  readonly guildId: string;
  readonly applicationId: string;
  readonly guildName = 'Brainstorm Lab';
  /** Every guild, the first (`guildId`) included, by id. */
  readonly guilds = new Map<string, FakeGuild>();
  readonly users = new Map<string, FakeUser>();
  readonly roles = new Map<string, FakeRole>();
  readonly members = new Map<string, FakeMember>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages: RecordedMessage[] = [];
  readonly webhooks = new Map<string, FakeWebhook>();
  /** What the CDN serves, by path (`/attachments/{channel}/{id}/{name}`): files people shared with their content. */
  readonly cdnFiles = new Map<string, { content: string | Uint8Array; contentType: string }>();
  readonly interactions = new Map<string, FakeInteraction>();
  readonly commands: RegisteredCommand[] = [];
  /** The guild of every bulk overwrite of guild commands, in order (who registered where, and how often). */
  readonly commandOverwrites: string[] = [];
  readonly typing: { channelId: string; atMs: number }[] = [];
  ownerId = '';
  /** Counts message creates and edits. */
  revision = 0;
  private readonly messageIndex = new Map<string, RecordedMessage>();
  private readonly dispatchListeners: ((event: string, data: unknown) => void)[] = [];

  constructor() {
    this.events.setMaxListeners(0);
    this.guildId = this.ids.next();
    this.applicationId = this.ids.next();
    this.roles.set(this.guildId, { id: this.guildId, name: '@everyone', permissions: defaultEveryonePermissions(), position: 0 });
    this.guilds.set(this.guildId, { id: this.guildId, name: this.guildName });
  }

  /**
   * Adds a guild with its own @everyone role (people are members of every guild). `shard` places it on shard
   * `index` of `count`, as Discord computes it from the id: `(guild_id >> 22) % count`.
   */
  addGuild(name: string, shard?: { index: number; count: number }): FakeGuild {
    let id = BigInt(this.ids.next());
    if (shard) {
      const timestamp = id >> 22n;
      const offset = (BigInt(shard.index) - (timestamp % BigInt(shard.count)) + BigInt(shard.count)) % BigInt(shard.count);
      id = ((timestamp + offset) << 22n) | (id & 0x3fffffn);
    }
    const guild: FakeGuild = { id: id.toString(), name };
    this.guilds.set(guild.id, guild);
    this.roles.set(guild.id, { id: guild.id, name: '@everyone', permissions: defaultEveryonePermissions(), position: 0 });
    return guild;
  }

  /** The guild a channel or thread belongs to. */
  guildOf(channelId: string): string {
    return this.channels.get(channelId)?.guildId ?? this.guildId;
  }

  /** Registers the gateway as the receiver of dispatches. */
  onDispatch(listener: (event: string, data: unknown) => void): void {
    this.dispatchListeners.push(listener);
  }

  /** Sends a dispatch to every connected gateway session. */
  dispatch(event: string, data: unknown): void {
    for (const listener of this.dispatchListeners) listener(event, data);
  }

  /** Tells waiters that something changed. */
  changed(): void {
    this.events.emit('change');
  }

  /** Adds a role. */
  addRole(name: string, permissions: bigint): FakeRole {
    const role: FakeRole = { id: this.ids.next(), name, permissions, position: this.roles.size };
    this.roles.set(role.id, role);
    return role;
  }

  /** Changes a role's permissions and tells connected clients (GUILD_ROLE_UPDATE). */
  updateRole(role: FakeRole, permissions: bigint): void {
    role.permissions = permissions;
    this.dispatch(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: this.guildId, role: rolePayload(role) });
    this.changed();
  }

  /** Adds a user and their guild membership. */
  addUser(username: string, options: { bot?: boolean; roleIds?: string[]; id?: string } = {}): FakeUser {
    const user: FakeUser = { id: options.id ?? this.ids.next(), username, globalName: options.bot ? null : username, bot: options.bot ?? false, avatar: null };
    this.users.set(user.id, user);
    const member: FakeMember = { userId: user.id, roleIds: options.roleIds ?? [], joinedAt: new Date().toISOString() };
    this.members.set(user.id, member);
    if (this.dispatchListeners.length > 0) {
      this.dispatch(GatewayDispatchEvents.GuildMemberAdd, { guild_id: this.guildId, ...memberPayload(member, user) });
    }
    return user;
  }

  /** A user that must exist. */
  requireUser(id: string): FakeUser {
    const user = this.users.get(id);
    if (!user) throw new Error(`fake discord: unknown user ${id}`);
    return user;
  }

  /** Adds a text channel to a guild (the first one unless named). */
  addTextChannel(name: string, guildId: string = this.guildId, kind: 'text' | 'forum' | 'voice' = 'text'): FakeChannel {
    const channel: FakeChannel = {
      id: this.ids.next(),
      guildId,
      kind,
      name,
      parentId: null,
      ownerId: null,
      autoArchiveDuration: 0,
      messageCount: 0,
      lastMessageId: null,
      createdAt: new Date().toISOString(),
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** A channel or thread, or 10003 Unknown Channel. */
  requireChannel(id: string): FakeChannel {
    const channel = this.channels.get(id);
    if (!channel) throw unknownChannel();
    return channel;
  }

  /** A message of a channel, or 10008 Unknown Message. */
  requireMessage(channelId: string, messageId: string): RecordedMessage {
    this.requireChannel(channelId);
    const record = this.messageIndex.get(messageId);
    if (!record || record.deleted || record.channelId !== channelId) throw unknownMessage();
    return record;
  }

  /** A message by id wherever it is (test helpers). */
  findMessage(messageId: string): RecordedMessage | undefined {
    return this.messageIndex.get(messageId);
  }

  /** The guild-level permissions of a user, as Discord computes them (owner and Administrator get all). */
  permissionsOf(userId: string, guildId: string = this.guildId): bigint {
    if (userId === this.ownerId) return ALL_PERMISSIONS;
    const member = this.members.get(userId);
    let bits = this.roles.get(guildId)?.permissions ?? 0n;
    for (const roleId of member?.roleIds ?? []) bits |= this.roles.get(roleId)?.permissions ?? 0n;
    return (bits & PermissionFlagsBits.Administrator) !== 0n ? ALL_PERMISSIONS : bits;
  }

  /** Stores a message, updates its channel, dispatches MESSAGE_CREATE (except ephemeral ones). */
  createMessage(input: NewMessage): RecordedMessage {
    const channel = this.requireChannel(input.channelId);
    if (input.origin !== 'interaction') admitSend(this, channel, input.authorId);
    const author = this.users.get(input.authorId);
    const record: RecordedMessage = {
      id: input.id ?? this.ids.next(),
      order: this.messages.length + 1,
      channelId: channel.id,
      origin: input.origin,
      type: input.type ?? MessageType.Default,
      authorId: input.authorId,
      displayName: input.displayName ?? author?.username ?? 'unknown',
      avatarUrl: input.avatarUrl ?? null,
      webhookId: input.webhookId ?? null,
      content: input.content,
      embeds: input.embeds ?? [],
      attachments: input.attachments ?? [],
      components: input.components ?? [],
      allowedMentions: input.allowedMentions ?? null,
      mentions: { everyone: false, userIds: [], roleIds: [] },
      flags: input.flags ?? 0,
      createdAt: new Date().toISOString(),
      editedAt: null,
      history: [],
      editTimes: [],
      deleted: false,
      threadId: null,
      interactionId: input.interactionId ?? null,
      referenceId: input.referenceId ?? null,
      revision: (this.revision += 1),
      createdAtMs: Date.now(),
    };
    record.mentions = resolveMentions(this, record);
    this.messages.push(record);
    this.messageIndex.set(record.id, record);
    channel.messageCount += 1;
    channel.lastMessageId = record.id;
    if ((record.flags & EPHEMERAL_FLAG) === 0) this.dispatch(GatewayDispatchEvents.MessageCreate, messagePayload(record, this, true));
    this.changed();
    return record;
  }

  /** Edits a message, keeping its history, and dispatches MESSAGE_UPDATE. */
  editMessage(
    record: RecordedMessage,
    changes: { content?: string; embeds?: APIEmbed[]; components?: unknown[]; allowedMentions?: APIAllowedMentions | null; flags?: number },
  ): void {
    admitEdit(this.channels.get(record.channelId));
    if (changes.content !== undefined && changes.content !== record.content) {
      record.history.push(record.content);
      record.content = changes.content;
    }
    if (changes.embeds !== undefined) record.embeds = changes.embeds;
    if (changes.components !== undefined) record.components = changes.components;
    if (changes.allowedMentions !== undefined) record.allowedMentions = changes.allowedMentions;
    if (changes.flags !== undefined) record.flags = changes.flags;
    record.editedAt = new Date().toISOString();
    record.editTimes.push(Date.now());
    record.revision = this.revision += 1;
    record.mentions = resolveMentions(this, record);
    if ((record.flags & EPHEMERAL_FLAG) === 0) this.dispatch(GatewayDispatchEvents.MessageUpdate, messagePayload(record, this, true));
    this.changed();
  }

  /** Deletes a message and dispatches MESSAGE_DELETE. */
  deleteMessage(record: RecordedMessage): void {
    record.deleted = true;
    this.dispatch(GatewayDispatchEvents.MessageDelete, { id: record.id, channel_id: record.channelId, guild_id: this.guildOf(record.channelId) });
    this.changed();
  }

  /** Opens a public thread (on a message when given: the thread id is the message id) and dispatches THREAD_CREATE. */
  createThread(parent: FakeChannel, starter: RecordedMessage | null, name: string, autoArchiveDuration: number, ownerId: string): FakeChannel {
    const thread: FakeChannel = {
      id: starter ? starter.id : this.ids.next(),
      guildId: parent.guildId,
      kind: 'thread',
      name,
      parentId: parent.id,
      ownerId,
      autoArchiveDuration,
      messageCount: 0,
      lastMessageId: null,
      createdAt: new Date().toISOString(),
    };
    this.channels.set(thread.id, thread);
    if (starter) {
      starter.threadId = thread.id;
      starter.flags |= MessageFlags.HasThread;
    }
    this.dispatch(GatewayDispatchEvents.ThreadCreate, { ...channelPayload(thread), newly_created: true });
    this.changed();
    return thread;
  }
}

/** The ephemeral message flag (only the invoking person sees the message). */
export const EPHEMERAL_FLAG = MessageFlags.Ephemeral;

function defaultEveryonePermissions(): bigint {
  const bits = PermissionFlagsBits;
  return (
    bits.ViewChannel |
    bits.SendMessages |
    bits.SendMessagesInThreads |
    bits.ReadMessageHistory |
    bits.UseApplicationCommands |
    bits.EmbedLinks |
    bits.AddReactions |
    bits.CreatePublicThreads
  );
}
