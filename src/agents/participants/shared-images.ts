import type { ChatMessage } from '../../core/domain.ts';

/** The most images one prompt carries: each costs a model about a thousand tokens, and the newest say the most. */
export const MAX_IMAGES_PER_PROMPT = 4;
/** What one image is assumed to cost in a prompt (Anthropic and OpenAI bill a mid-sized screenshot about so). */
export const TOKENS_PER_IMAGE = 1_000;

/** The line `messageText` (src/bot/inbound.ts) writes for an image a person attached. */
// No `<` in the address: from each `<` of a line full of them the address ran on to the line's end (quadratic).
const IMAGE_LINE = /^\[attached image: [^\n]*<(https?:\/\/[^\s<>]+)>\]$/gm;
/** Discord's CDN hosts, whose signed addresses stop working at their `ex` time. */
const DISCORD_CDN_HOSTS = new Set(['cdn.discordapp.com', 'media.discordapp.net']);

/** The addresses of the images attached to a message's text, in order. */
export function imageAddressesIn(text: string): string[] {
  return [...text.matchAll(IMAGE_LINE)].map((match) => match[1]!);
}

/**
 * True for a Discord CDN address past its signed expiry (`ex`, hex seconds): a provider fetching it gets 404, and
 * the request fails. Other addresses are taken as they are.
 */
export function isExpiredAddress(address: string, now: Date): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return true;
  }
  if (!DISCORD_CDN_HOSTS.has(url.hostname)) return false;
  const expiry = Number.parseInt(url.searchParams.get('ex') ?? '', 16);
  return Number.isFinite(expiry) && expiry * 1000 <= now.getTime();
}

/**
 * The images a participant is shown with `messages` (oldest first): those people attached, newest first up to
 * `MAX_IMAGES_PER_PROMPT`, skipping addresses that expired; keyed by message id. Only people's messages count: a
 * participant quoting an address is not sharing an image.
 */
export function imagesToShow(messages: readonly ChatMessage[], now: Date): Map<number, string[]> {
  const shown = new Map<number, string[]>();
  let left = MAX_IMAGES_PER_PROMPT;
  for (let index = messages.length - 1; index >= 0 && left > 0; index -= 1) {
    const message = messages[index]!;
    if (message.speaker.kind !== 'human') continue;
    const addresses = imageAddressesIn(message.text)
      .filter((address) => !isExpiredAddress(address, now))
      .slice(-left);
    if (addresses.length === 0) continue;
    shown.set(message.id, addresses);
    left -= addresses.length;
  }
  return shown;
}
