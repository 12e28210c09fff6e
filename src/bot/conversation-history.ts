/** The last people's messages of a Discord channel or thread, for a session started from the talk there. */
import type { Client, Message } from 'discord.js';
import type { ConversationLine } from '../core/ports.ts';
import { isFromPerson } from './inbound.ts';

/** Discord's largest page of channel messages. */
const PAGE_SIZE = 100;

function byId(left: Message, right: Message): number {
  const a = BigInt(left.id);
  const b = BigInt(right.id);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A person's name as the room sees it (server nickname first); never their id. */
function displayName(message: Message): string {
  return message.member?.displayName ?? message.author.globalName ?? message.author.username;
}

/**
 * Up to `limit` of the channel's newest messages written by people, oldest first. Mentions are shown as names
 * (`cleanContent`); the services drop any id markup left over.
 */
export async function readConversation(client: Client, channelId: string, limit: number): Promise<ConversationLine[]> {
  if (limit <= 0) return [];
  const channel = await client.channels.fetch(channelId).catch(() => null);
  if (!channel || !channel.isTextBased() || !('messages' in channel)) return [];
  const page = await channel.messages.fetch({ limit: Math.min(PAGE_SIZE, limit) });
  return [...page.values()]
    .sort(byId)
    .filter((message) => isFromPerson(message) && message.content.trim() !== '')
    .map((message) => ({ speakerName: displayName(message), text: message.cleanContent }));
}
