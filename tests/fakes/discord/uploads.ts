/**
 * Files on Discord's CDN: what people attach (tests) and what the bot uploads (multipart `files[n]`). Each address is
 * signed for 24 hours, as the CDN signs them, and the CDN serves the content until then. Uploads keep Discord's limits:
 * at most 10 files a message, each at most 10 MiB (413 "Request entity too large" past that, as for a server without
 * boosts).
 */
import { randomBytes } from 'node:crypto';
import type { APIAttachment } from 'discord.js';
import { DiscordHttpError } from './discord-errors.ts';
import type { FakeDiscordState } from './fake-state.ts';

/** How long Discord's CDN signs an attachment's address for. */
const CDN_SIGNATURE_SECONDS = 24 * 60 * 60;
/** Discord's upload limits for a server without boosts. */
export const UPLOAD_LIMITS = { files: 10, bytes: 10 * 1024 * 1024 };

/** A file as a request or a test hands it over. */
export interface UploadedFile {
  name: string;
  contentType: string;
  content?: string | Uint8Array;
  /** When the CDN stops serving it (default: 24 hours from now). */
  expiresAt?: Date;
}

/** The body key under which the router hands multipart files to the routes. */
export const UPLOADS_KEY = '__files';

/** Stores a file on the fake CDN and returns its attachment object, with a signed address. */
export function cdnAttachment(state: FakeDiscordState, channelId: string, file: UploadedFile): APIAttachment {
  const id = state.ids.next();
  const issued = Math.floor(Date.now() / 1000);
  const expires = file.expiresAt ? Math.floor(file.expiresAt.getTime() / 1000) : issued + CDN_SIGNATURE_SECONDS;
  const signature = `ex=${expires.toString(16)}&is=${issued.toString(16)}&hm=${randomBytes(32).toString('hex')}&`;
  const path = `/attachments/${channelId}/${id}/${file.name}`;
  if (file.content !== undefined) state.cdnFiles.set(path, { content: file.content, contentType: file.contentType });
  const url = `https://cdn.discordapp.com/attachments/${channelId}/${id}/${encodeURIComponent(file.name)}?${signature}`;
  return {
    id,
    filename: file.name,
    content_type: file.contentType,
    size: file.content === undefined ? 48_213 : Buffer.byteLength(file.content),
    url,
    proxy_url: url.replace('cdn.discordapp.com', 'media.discordapp.net'),
  };
}

/** The files a request uploaded, checked against Discord's limits; stored on the CDN of `channelId`. */
export function uploadedAttachments(state: FakeDiscordState, channelId: string, body: Record<string, unknown>): APIAttachment[] {
  const files = (body[UPLOADS_KEY] ?? []) as UploadedFile[];
  if (files.length > UPLOAD_LIMITS.files) {
    throw new DiscordHttpError(400, 50035, 'Invalid Form Body', {
      files: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${UPLOAD_LIMITS.files} or fewer in length.` }] },
    });
  }
  if (files.some((file) => Buffer.byteLength(file.content ?? '') > UPLOAD_LIMITS.bytes)) throw new DiscordHttpError(413, 40005, 'Request entity too large');
  return files.map((file) => cdnAttachment(state, channelId, file));
}

/** The file parts of a multipart body (`files[0]`, `files[1]`...), as uploads. */
export async function multipartFiles(form: FormData): Promise<UploadedFile[]> {
  const parts: File[] = [];
  form.forEach((value, key) => {
    if (/^files\[\d+\]$/.test(key) && typeof value !== 'string') parts.push(value);
  });
  return Promise.all(
    parts.map(async (part) => ({ name: part.name, contentType: part.type || 'application/octet-stream', content: new Uint8Array(await part.arrayBuffer()) })),
  );
}
