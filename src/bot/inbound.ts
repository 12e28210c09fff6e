/** Which Discord messages and interactions reach the services, and how they are described to them. */
import {
  ChannelType,
  GuildMember,
  MessageType,
  PermissionFlagsBits,
  type Channel,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Message,
  type PermissionsBitField,
} from 'discord.js';
import type { Author } from '../core/domain.ts';

/** Where something happened, in the services' terms: a session room (thread) or a brainstorm channel. */
export interface BrainstormPlace {
  /** The thread of a session, or null in the brainstorm channel itself. */
  roomId: string | null;
  /** The brainstorm channel (a thread's parent). */
  channelId: string;
}

/** The brainstorm place of a channel: a brainstorm channel or a thread under one; null anywhere else. */
export function placeOf(channel: Channel | null, brainstormChannelIds: ReadonlySet<string>): BrainstormPlace | null {
  if (!channel) return null;
  if (channel.isThread()) return channel.parentId && brainstormChannelIds.has(channel.parentId) ? { roomId: channel.id, channelId: channel.parentId } : null;
  return brainstormChannelIds.has(channel.id) ? { roomId: null, channelId: channel.id } : null;
}

/**
 * Where a message belongs, as `placeOf` says, except the first message of a forum post: a new topic in the forum (its
 * post, whose id is the message's, becomes the session's room).
 */
export function messagePlace(message: Pick<Message, 'id' | 'channel'>, brainstormChannelIds: ReadonlySet<string>): BrainstormPlace | null {
  const place = placeOf(message.channel, brainstormChannelIds);
  return place && isForumPostStart(message) ? { roomId: null, channelId: place.channelId } : place;
}

/** True for the message that opened a forum post (a forum thread's id is its first message's). */
export function isForumPostStart(message: Pick<Message, 'id' | 'channel'>): boolean {
  const channel = message.channel;
  return channel.isThread() && channel.id === message.id && channel.parent?.type === ChannelType.GuildForum;
}

/** A forum post's topic: its title, then what its first message says (unless that repeats the title). */
export function forumTopic(title: string, text: string): string {
  return text.trim().toLowerCase().startsWith(title.trim().toLowerCase()) ? text : `${title}\n\n${text}`.trim();
}

/** True for a person's own message: not a bot, not a webhook (our personas), not a system message. */
export function isFromPerson(message: Message): boolean {
  if (message.author.bot || message.author.system || message.webhookId !== null || message.system) return false;
  return message.type === MessageType.Default || message.type === MessageType.Reply;
}

/** What decides a person's name and admin rights in a guild. */
export interface MemberFacts {
  displayName: string;
  permissions: Readonly<PermissionsBitField> | null;
  roleIds: readonly string[];
}

/** A person as the services know them; admin = Manage Server permission or the configured admin role. */
export function authorFrom(
  user: { id: string; username: string; globalName: string | null },
  member: MemberFacts | null,
  adminRoleId: string | undefined,
): Author {
  const hasManageServer = member?.permissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
  const hasAdminRole = adminRoleId !== undefined && (member?.roleIds.includes(adminRoleId) ?? false);
  return { id: user.id, name: member?.displayName ?? user.globalName ?? user.username, isAdmin: hasManageServer || hasAdminRole };
}

/** The parts of a guild member `authorFrom` needs. */
export function memberFacts(member: GuildMember | null): MemberFacts | null {
  if (!member) return null;
  return { displayName: member.displayName, permissions: member.permissions, roleIds: [...member.roles.cache.keys()] };
}

/** The member facts of an interaction, whether discord.js gave a cached member or the raw API one. */
export function interactionMember(interaction: ChatInputCommandInteraction | ButtonInteraction): MemberFacts | null {
  const member = interaction.member;
  if (member instanceof GuildMember) return memberFacts(member);
  if (!member) return null;
  return {
    displayName: member.nick ?? interaction.user.globalName ?? interaction.user.username,
    permissions: interaction.memberPermissions,
    roleIds: member.roles,
  };
}

/**
 * What a person posted, as the session's text: the message, then one line per file or sticker attached, so the
 * models, the record and the console know something was shared (and where); under a text file's line, what it says
 * (`excerpts`, read by AttachmentTexts).
 */
export function messageText(message: Pick<Message, 'content' | 'attachments' | 'stickers'>, excerpts: ReadonlyMap<string, string> = new Map()): string {
  const files = [...message.attachments.values()].map((file) => {
    const line = `[attached ${kindOf(file.contentType)}: ${file.name} <${file.url}>]`;
    const excerpt = excerpts.get(file.id);
    return excerpt ? `${line}\n${excerpt}` : line;
  });
  const stickers = [...message.stickers.values()].map((sticker) => `[sticker: ${sticker.name}]`);
  return [message.content.trim(), ...files, ...stickers].filter((part) => part !== '').join('\n');
}

function kindOf(contentType: string | null): string {
  if (contentType?.startsWith('image/')) return 'image';
  if (contentType?.startsWith('video/')) return 'video';
  if (contentType?.startsWith('audio/')) return 'audio';
  if (contentType === 'application/pdf') return 'PDF';
  return 'file';
}
