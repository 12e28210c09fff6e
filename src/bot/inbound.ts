/** Which Discord messages and interactions reach the services, and how they are described to them. */
import { MessageType, PermissionFlagsBits, type Channel, type GuildMember, type Message, type PermissionsBitField } from 'discord.js';
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
