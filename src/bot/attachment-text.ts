/**
 * The text files and PDFs people share (a spec in Markdown or PDF, notes, a CSV), read so the participants can discuss
 * what they say, not only that they were shared. Only small files are read, from Discord's CDN, within the room a
 * message has under `MAX_HUMAN_MESSAGE_CHARS`; a file that cannot be read is named as before, and the message goes on.
 */
import type { Attachment, Collection, Message } from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import { readPdfText } from './pdf-text.ts';
import { clipText } from '../core/text-clip.ts';

/** Files larger than this are named, not read: an excerpt of a huge log says little. */
const MAX_FILE_BYTES = 256 * 1024;
/** PDFs carry fonts and images around their words: a larger file holds no more text than a small text file. */
const MAX_PDF_BYTES = 8 * 1024 * 1024;
/** How long one file may take to arrive. */
const READ_TIMEOUT_MS = 5_000;
/** Room kept in a message for its own words and the lines naming files. */
const TEXT_RESERVE_CHARS = 500;

const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|csv|toml|x-sh|javascript|typescript))/;
const TEXT_NAMES = /\.(md|markdown|txt|csv|tsv|json|ya?ml|toml|xml|log|ini|sql|py|ts|js|go|rs|java|rb|sh)$/i;

/** What reading attachments needs. */
export interface AttachmentTextOptions {
  /** Discord's CDN origin, where attachment addresses point (tests: the fake Discord). */
  cdnUrl: string;
  fetch: typeof globalThis.fetch;
  /** The longest message a person may send (`MAX_HUMAN_MESSAGE_CHARS`): what is read fits within it. */
  maxMessageChars: () => number;
  logger: Logger;
}

/** True for an attachment worth reading as text. */
export function isTextFile(attachment: Pick<Attachment, 'name' | 'contentType' | 'size'>): boolean {
  if (attachment.size > MAX_FILE_BYTES) return false;
  return TEXT_TYPES.test(attachment.contentType ?? '') || TEXT_NAMES.test(attachment.name);
}

/** True for a PDF small enough to read. */
export function isPdfFile(attachment: Pick<Attachment, 'name' | 'contentType' | 'size'>): boolean {
  return attachment.size <= MAX_PDF_BYTES && (attachment.contentType === 'application/pdf' || /\.pdf$/i.test(attachment.name));
}

/** A file's text in a fence longer than any run of backticks inside it, so the fence holds. */
export function fencedExcerpt(text: string, total: number): string {
  // A fold, not `Math.max(...runs)`: spread as arguments, 130,000 runs of backticks overflowed the stack.
  const longestRun = [...text.matchAll(/`+/g)].reduce((longest, match) => Math.max(longest, match[0].length), 2);
  const fence = '`'.repeat(longestRun + 1);
  const cut = text.length < total ? `\n(the first ${text.length} of ${total} characters)` : '';
  return `${fence}\n${text}\n${fence}${cut}`;
}

/** Reads the text files attached to a message, within the message's room; keyed by attachment id. */
export class AttachmentTexts {
  constructor(private readonly options: AttachmentTextOptions) {}

  /** The excerpts to show under the lines naming the files (files that could not be read are left out). */
  async excerpts(message: Pick<Message, 'content' | 'attachments'>): Promise<Map<string, string>> {
    const files = [...(message.attachments as Collection<string, Attachment>).values()].filter((file) => isTextFile(file) || isPdfFile(file));
    const excerpts = new Map<string, string>();
    let room = this.options.maxMessageChars() - message.content.length - TEXT_RESERVE_CHARS;
    for (const file of files) {
      if (room < 200) break;
      const read = await this.read(file, room);
      if (read === null) continue;
      const shown = clipText(read.text, room);
      // A PDF read only in part says which pages; the characters it holds in all are not known then.
      const excerpt = read.pages
        ? `${fencedExcerpt(shown, shown.length)}\n(the first ${shown.length} characters, from pages 1-${read.pages.read} of ${read.pages.count})`
        : fencedExcerpt(shown, read.text.length);
      excerpts.set(file.id, excerpt);
      room -= excerpt.length;
    }
    return excerpts;
  }

  private async read(file: Attachment, room: number): Promise<{ text: string; pages?: { read: number; count: number } } | null> {
    try {
      const address = new URL(file.url);
      const response = await this.options.fetch(`${this.options.cdnUrl.replace(/\/$/, '')}${address.pathname}${address.search}`, {
        signal: AbortSignal.timeout(READ_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      if (isPdfFile(file) && !isTextFile(file)) return await this.readPdf(new Uint8Array(await response.arrayBuffer()), room);
      const text = (await response.text()).replace(/\r\n/g, '\n').trim();
      // A file that is not text after all (NUL bytes) is named only.
      return text === '' || text.includes('\u0000') ? null : { text };
    } catch (error) {
      this.options.logger.warn({ attachment: file.id, name: file.name, err: (error as Error).message }, 'could not read a shared file; it is named only');
      return null;
    }
  }

  /** A PDF's text layer; a scanned PDF (no text) is named only, and pages left unread are said. */
  private async readPdf(bytes: Uint8Array, room: number): Promise<{ text: string; pages?: { read: number; count: number } } | null> {
    const pdf = await readPdfText(bytes, room);
    if (!pdf.text) return null;
    return { text: pdf.text, ...(pdf.pagesRead < pdf.pageCount ? { pages: { read: pdf.pagesRead, count: pdf.pageCount } } : {}) };
  }
}
