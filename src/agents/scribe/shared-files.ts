/**
 * The record's "Shared files" section, and file lines without their addresses. A file people attach in Discord
 * reaches the session as a line `[attached image: mockup.png <address>]`; that address is a signed CDN link that
 * stops working a day later, so a record quoting it would send its readers to "This content is no longer available".
 * The Scribe is given the line without the address, and the section points to the Discord message, which lasts and
 * shows the file afresh. Written from the stored messages, not by the Scribe model, like the web sources.
 */
import type { ChatMessage } from '../../core/domain.ts';

/** The heading of the section (a level-2 heading, like the record's own sections). */
export const SHARED_FILES_HEADING = '## Shared files';

/** The line `messageText` (src/bot/inbound.ts) writes for each file a person attached. */
const FILE_LINE = /^\[attached ([^:\]\n]+): ([^\n]*?) <(https?:\/\/[^\s>]+)>\]$/gm;

/** A file a person attached to a message. */
export interface SharedFile {
  kind: string;
  name: string;
}

/** The files attached to a message's text, in order. */
export function sharedFilesIn(text: string): SharedFile[] {
  return [...text.matchAll(FILE_LINE)].map((match) => ({ kind: match[1]!.trim(), name: match[2]!.trim() }));
}

/** The text with each file line's (expiring) address left out: `[attached image: mockup.png]`. */
export function withoutFileAddresses(text: string): string {
  return text.replace(FILE_LINE, (_line, kind: string, name: string) => `[attached ${kind.trim()}: ${name.trim()}]`);
}

/** The record without its shared files section (from the heading to the next level-1 or level-2 heading). */
export function withoutSharedFiles(record: string): string {
  const lines = record.split('\n');
  const start = lines.findIndex((line) => line.trim() === SHARED_FILES_HEADING);
  if (start < 0) return record;
  const next = lines.findIndex((line, index) => index > start && /^#{1,2} /.test(line));
  return [...lines.slice(0, start), ...(next < 0 ? [] : lines.slice(next))].join('\n').trimEnd();
}

/** A file name as inline code: shown as named (underscores and brackets are common in file names), on one line. */
function codeName(name: string): string {
  return `\`${name.replace(/\s+/g, ' ').replace(/`/g, "'").trim() || 'file'}\``;
}

/**
 * The record with a fresh shared files section: each file people attached, with who shared it and a link to the
 * message that carries it (the message's number alone where it has no address, as in the console); none: no section.
 */
export function withSharedFiles(record: string, messages: readonly Pick<ChatMessage, 'number' | 'speaker' | 'text' | 'externalUrl'>[]): string {
  const base = withoutSharedFiles(record);
  const lines: string[] = [];
  for (const message of messages) {
    if (message.speaker.kind !== 'human') continue;
    const where = message.externalUrl ? `[#${message.number}](${message.externalUrl.replace(/\(/g, '%28').replace(/\)/g, '%29')})` : `#${message.number}`;
    for (const file of sharedFilesIn(message.text)) lines.push(`- ${codeName(file.name)} (${file.kind}) — ${message.speaker.name}, ${where}`);
  }
  if (lines.length === 0) return base;
  return `${base.trimEnd()}\n\n${SHARED_FILES_HEADING}\n${lines.join('\n')}\n`;
}
