/** The records the fake Discord keeps: plain data that tests read to assert what people would see. */
import type { APIAllowedMentions, APIAttachment, APIEmbed, APIInteraction, MessageType } from 'discord.js';

/** A user (person or bot) known to the fake. */
export interface FakeUser {
  id: string;
  username: string;
  globalName: string | null;
  bot: boolean;
  avatar: string | null;
}

/** A guild role with its permission bits. */
export interface FakeRole {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
}

/** A guild member: a user and the roles they hold. */
export interface FakeMember {
  userId: string;
  roleIds: string[];
  joinedAt: string;
}

/** A text channel or a public thread. */
/** A guild (server). The first one holds the roles; people are members of every guild. */
export interface FakeGuild {
  id: string;
  name: string;
}

export interface FakeChannel {
  id: string;
  /** The guild the channel (or thread) belongs to. */
  guildId: string;
  /** `forum`: a forum channel, where people open posts (threads) and nobody writes in the channel itself. */
  kind: 'text' | 'forum' | 'voice' | 'thread';
  name: string;
  parentId: string | null;
  ownerId: string | null;
  autoArchiveDuration: number;
  messageCount: number;
  lastMessageId: string | null;
  createdAt: string;
  /** Threads only: archived (inactive) and locked by a moderator; absent means false. */
  archived?: boolean;
  locked?: boolean;
}

/** Who a message pings, computed like Discord from the content and `allowed_mentions`. */
export interface MentionOutcome {
  everyone: boolean;
  userIds: string[];
  roleIds: string[];
}

/** How a message got into the channel. */
export type MessageOrigin = 'person' | 'bot' | 'webhook' | 'interaction';

/** Every message the fake holds, in global creation order (`order`). */
export interface RecordedMessage {
  id: string;
  order: number;
  channelId: string;
  origin: MessageOrigin;
  type: MessageType;
  authorId: string;
  /** The name shown: a webhook message's `username`, otherwise the author's username. */
  displayName: string;
  avatarUrl: string | null;
  webhookId: string | null;
  content: string;
  embeds: APIEmbed[];
  /** Files a person attached (images, documents), as Discord describes them. */
  attachments: APIAttachment[];
  /** Components exactly as posted (action rows of buttons). */
  components: unknown[];
  allowedMentions: APIAllowedMentions | null;
  mentions: MentionOutcome;
  flags: number;
  createdAt: string;
  editedAt: string | null;
  /** Every earlier content, oldest first (streaming edits). */
  history: string[];
  editTimes: number[];
  deleted: boolean;
  /** The thread started on this message, if any. */
  threadId: string | null;
  interactionId: string | null;
  /** The message this one replies to (Discord's `message_reference`), if any. */
  referenceId: string | null;
  /** The fake's change counter at the last create or edit: orders final texts without looking at clocks. */
  revision: number;
  /** `Date.now()` when the fake stored it (for benches, never for assertions on time). */
  createdAtMs: number;
}

/** A webhook created on a channel. */
export interface FakeWebhook {
  id: string;
  token: string;
  channelId: string;
  name: string;
  avatar: string | null;
  applicationId: string | null;
  creatorId: string;
  deleted: boolean;
}

/** One response to an interaction, in the order the bot made them. */
export interface InteractionResponseRecord {
  kind: 'callback' | 'edit_original' | 'delete_original' | 'followup';
  callbackType?: number;
  content?: string;
  ephemeral: boolean;
  atMs: number;
}

/** An interaction the fake dispatched, with what the bot did about it. */
export interface FakeInteraction {
  id: string;
  token: string;
  payload: APIInteraction;
  dispatchedAtMs: number;
  acknowledged: boolean;
  ephemeral: boolean;
  originalMessageId: string | null;
  responses: InteractionResponseRecord[];
}

/** An application command as registered by a bulk PUT. */
export interface RegisteredCommand {
  id: string;
  guildId: string;
  body: Record<string, unknown>;
}
