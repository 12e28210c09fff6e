/**
 * A session started inside a conversation reads its last messages: from the store when the place is a session's
 * room, else from the transport (a Discord thread or channel). Each line is attributed by display name and
 * screened like a person's message; what the screen refuses never reaches the Planner.
 */
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { Session, StartingConversation } from '../../core/domain.ts';
import type { ConversationLine, Transport } from '../../core/ports.ts';

/** How much of a conversation is read. */
export interface ConversationBounds {
  maxMessages: number;
  maxChars: number;
}

/** What reading a conversation needs. */
export interface ConversationSources {
  messages: Pick<MessagesRepository, 'listRecent'>;
  /** The screen of the gateway: a refused text (or name) is left out. */
  screen: (text: string, subject: 'message' | 'display_name') => Promise<boolean>;
  bounds: () => ConversationBounds;
}

/** Ids and mentions never reach a model: `<@123>`, `<#123>`, `<@&123>` and custom emoji markup are dropped. */
function withoutMentions(text: string): string {
  return text
    .replace(/<(?:@[!&]?|#)\d+>/g, '')
    .replace(/<a?:(\w+):\d+>/g, ':$1:')
    .trim();
}

/** The conversation a session starts from, or null when there is none (or reading is turned off). */
export async function readStartingConversation(
  sources: ConversationSources,
  place: { transport: Transport | null; channelId: string; session: Session | null },
): Promise<StartingConversation | null> {
  const bounds = sources.bounds();
  if (bounds.maxMessages === 0) return null;
  const lines = place.session
    ? await storedLines(sources, place.session, bounds.maxMessages)
    : ((await place.transport?.recentMessages?.(place.channelId, bounds.maxMessages)) ?? []);
  return compileConversation(lines, sources, bounds);
}

async function storedLines(sources: ConversationSources, session: Session, count: number): Promise<ConversationLine[]> {
  const recent = await sources.messages.listRecent(session.id, count);
  return recent
    .filter((message) => message.deliveryStatus !== 'withheld' && message.deliveryStatus !== 'internal' && message.speaker.kind !== 'system')
    .map((message) => ({ speakerName: message.speaker.name, text: message.text }));
}

/** Newest lines first until the character budget is spent, then shown oldest first. */
export async function compileConversation(
  lines: readonly ConversationLine[],
  sources: Pick<ConversationSources, 'screen'>,
  bounds: ConversationBounds,
): Promise<StartingConversation | null> {
  const kept: { name: string; text: string }[] = [];
  let used = 0;
  for (const line of [...lines].slice(-bounds.maxMessages).reverse()) {
    const text = withoutMentions(line.text);
    if (text === '' || text.startsWith('!')) continue;
    const name = line.speakerName.replace(/[[\]\n]/g, ' ').trim() || 'Someone';
    const shown = (await sources.screen(name, 'display_name')) ? name : 'Someone';
    const said = (await sources.screen(text, 'message')) ? text : '(a message left out: the screen refused it)';
    const entry = `[${shown}]: ${said}`;
    if (used + entry.length > bounds.maxChars) break;
    used += entry.length + 1;
    kept.push({ name: shown, text: entry });
  }
  if (kept.length === 0) return null;
  kept.reverse();
  return { text: kept.map((entry) => entry.text).join('\n'), messages: kept.length, speakers: [...new Set(kept.map((entry) => entry.name))] };
}

/** The reply to `!brainstorm`: where the session went and what its Planner read. */
export function startedFromConversation(conversation: StartingConversation | null, transport: string): string {
  const read = conversation ? `with the last ${conversation.messages} messages here` : 'with no earlier messages to read here';
  return `Starting a brainstorm ${read}: the Planner is on it in a new ${transport === 'discord' ? 'thread' : 'room'}.`;
}
