/** How an outgoing message looks in Discord: reply quotes, the simulated marker, names, buttons, fallback embeds. */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import type { OutgoingMessage, ReplyReference } from '../services/ports.ts';
import type { Speaker } from '../services/domain.ts';

/** The custom id of the plan's approve button. */
export const APPROVE_BUTTON_ID = 'brainstorm:approve';

/** Shown under text that came from the demo simulator rather than a real model. */
export const SIMULATED_MARKER = '-# simulated model (demo mode)';

/** Discord's limits on names. */
const WEBHOOK_NAME_LIMIT = 80;
const THREAD_NAME_LIMIT = 100;
const EXCERPT_LIMIT = 80;
/** More quotes than this bury the answer; the rest are counted. */
const MAX_QUOTES = 3;

/** The full text of a message before splitting: reply quotes, the content, the simulated marker. */
export function composeText(message: OutgoingMessage): string {
  const quotes = message.replyTo.slice(0, MAX_QUOTES).map(quoteLine);
  if (message.replyTo.length > MAX_QUOTES) quotes.push(`> …and ${message.replyTo.length - MAX_QUOTES} more`);
  const parts = [quotes.join('\n'), message.content.trim() === '' ? '*(no text)*' : message.content, message.simulated ? SIMULATED_MARKER : ''];
  return parts.filter((part) => part !== '').join('\n');
}

/** One reply reference as a short quote with a jump link (webhooks cannot reply natively). */
export function quoteLine(reference: ReplyReference): string {
  const excerpt = truncate(reference.excerpt.replace(/\s+/g, ' ').trim(), EXCERPT_LIMIT);
  const name = escapeMarkdown(reference.speakerName);
  const link = reference.url ? ` [↪](<${reference.url}>)` : '';
  return `> **${name}**: ${escapeMarkdown(excerpt)}${link}`;
}

/** A persona's webhook username: 1-80 characters, never containing "discord" or "clyde" (Discord refuses those). */
export function personaUsername(speaker: Speaker): string {
  const collapsed = speaker.name.replace(/\s+/g, ' ').trim();
  const safe = collapsed.replace(/discord/gi, (word) => `${word.slice(0, 4)}·${word.slice(4)}`).replace(/clyde/gi, (word) => `${word.slice(0, 3)}·${word.slice(3)}`);
  return truncate(safe === '' ? 'Brainstorm' : safe, WEBHOOK_NAME_LIMIT);
}

/** A thread name from a session title: one line, 1-100 characters. */
export function threadName(title: string): string {
  const collapsed = title.replace(/\s+/g, ' ').trim();
  return truncate(collapsed === '' ? 'Brainstorm' : collapsed, THREAD_NAME_LIMIT);
}

/** The approve button row for the plan message. */
export function approveButtonRow(): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [{ type: ComponentType.Button, style: ButtonStyle.Success, custom_id: APPROVE_BUTTON_ID, label: 'Approve plan' }],
  };
}

/** The embed a persona speaks through when the bot may not use webhooks: name and avatar on top, text below. */
export function fallbackEmbed(speaker: Speaker, text: string): APIEmbed {
  return {
    author: { name: truncate(speaker.name.trim() === '' ? 'Brainstorm' : speaker.name.trim(), 256), ...(speaker.avatarUrl ? { icon_url: speaker.avatarUrl } : {}) },
    description: text,
    color: colourFor(speaker.name),
  };
}

/** A jump link to a message. */
export function messageUrl(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1).trimEnd()}…`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_`~|>[\]])/g, '\\$1');
}

/** A stable colour per speaker so each persona's embeds are recognisable. */
function colourFor(name: string): number {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0;
  return hash & 0xffffff;
}
