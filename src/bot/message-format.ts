/** How an outgoing message looks in Discord: reply quotes, the simulated marker, names, buttons, fallback embeds. */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import type { OutgoingMessage, ReplyReference } from '../core/ports.ts';
import type { Speaker } from '../core/domain.ts';
import { DISCORD_MESSAGE_LIMIT, splitMessage } from './message-splitter.ts';
import { sourcesLine } from './citation-line.ts';
import { shortenText } from '../core/text-clip.ts';

/** The custom id of the plan's approve button. */
export const APPROVE_BUTTON_ID = 'brainstorm:approve';

/** Shown under text that came from the demo simulator rather than a real model. */
export const SIMULATED_MARKER = '-# simulated model (demo mode)';

/** Discord's limits on names. */
const WEBHOOK_NAME_LIMIT = 80;
const THREAD_NAME_LIMIT = 100;
/** The delivery service passes at most five references; more would not fit one line anyway. */
const MAX_REFERENCES = 5;
/** When an answer is split anyway, its reply line keeps jump links only within this many characters. */
const SPLIT_REPLY_LINE_BUDGET = 400;

/**
 * The messages an outgoing message becomes: one short reply line on top (never a message of its own), the
 * content, its web sources, the simulated marker. Text that fits one message stays one message, links dropped before that.
 */
export function composeChunks(message: OutgoingMessage, limit: number = DISCORD_MESSAGE_LIMIT): string[] {
  const body = [
    // trimEnd rather than /\s+$/, which is quadratic in a run of spaces (see splitMessage).
    message.content.trim() === '' ? '*(no text)*' : message.content.trimEnd(),
    sourcesLine(message.citations),
    message.simulated ? SIMULATED_MARKER : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
  const references = message.replyTo.slice(0, MAX_REFERENCES);
  if (references.length === 0) return splitMessage(body, limit);
  if (body.length <= limit) {
    const line = replyLine(references, limit - body.length - 1);
    return [line === '' ? body : `${line}\n${body}`];
  }
  const line = replyLine(references, SPLIT_REPLY_LINE_BUDGET);
  if (line === '') return splitMessage(body, limit);
  const [first, ...rest] = splitMessage(body, limit - line.length - 1);
  return first === undefined ? [line] : [`${line}\n${first}`, ...rest];
}

/**
 * Reply references as one small line: who is answered, each name followed by jump links to the messages
 * (webhooks cannot reply natively). Links are dropped, oldest first, until the line fits `budget`; '' when
 * not even the names fit.
 */
export function replyLine(references: ReplyReference[], budget: number): string {
  for (let links = references.length; links >= 0; links -= 1) {
    const linked = new Set(references.slice(references.length - links));
    const line = renderReplyLine(references, linked);
    if (line.length <= budget) return line;
  }
  return '';
}

function renderReplyLine(references: ReplyReference[], linked: Set<ReplyReference>): string {
  const bySpeaker = new Map<string, string[]>();
  for (const reference of references) {
    const links = bySpeaker.get(reference.speakerName) ?? [];
    if (reference.url && linked.has(reference)) links.push(`[#${reference.messageId}](<${reference.url}>)`);
    bySpeaker.set(reference.speakerName, links);
  }
  const parts = [...bySpeaker].map(([name, links]) => [escapeMarkdown(shortenText(name.replace(/\s+/g, ' ').trim(), 40)), ...links].join(' '));
  return `-# ↪ replying to ${parts.join(', ')}`;
}

/** A persona's webhook username: 1-80 characters, never containing "discord" or "clyde" (Discord refuses those). */
export function personaUsername(speaker: Speaker): string {
  const collapsed = speaker.name.replace(/\s+/g, ' ').trim();
  const safe = collapsed
    .replace(/discord/gi, (word) => `${word.slice(0, 4)}·${word.slice(4)}`)
    .replace(/clyde/gi, (word) => `${word.slice(0, 3)}·${word.slice(3)}`);
  return shortenText(safe === '' ? 'Brainstorm' : safe, WEBHOOK_NAME_LIMIT);
}

/** A thread name from a session title: one line, 1-100 characters. */
export function threadName(title: string): string {
  // The lines naming attached files (see `messageText`) would fill the name with a CDN address, and a text file's
  // excerpt under its line with its contents.
  const collapsed = title
    .replace(/^(`{3,})\n[\s\S]*?\n\1(\n\(the first \d+ of \d+ characters\))?$/gm, '')
    .replace(/^\[(attached [^\]]*|sticker: [^\]]*)\]$/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  return shortenText(collapsed === '' ? 'Brainstorm' : collapsed, THREAD_NAME_LIMIT);
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
    author: {
      name: shortenText(speaker.name.trim() === '' ? 'Brainstorm' : speaker.name.trim(), 256),
      ...(speaker.avatarUrl ? { icon_url: speaker.avatarUrl } : {}),
    },
    description: text,
    color: colourFor(speaker.name),
  };
}

/** A jump link to a message. */
export function messageUrl(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
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
