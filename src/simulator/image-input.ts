import type { ChatCompletionRequest } from './chat-types.ts';
import type { SimulatedModel } from './pricing.ts';

/** A refusal as OpenRouter sends it: the status and the body's error. */
export interface ImageRefusal {
  status: number;
  message: string;
  metadata?: Record<string, unknown>;
}

/** Discord's CDN hosts: their signed addresses answer 404 after the `ex` time (hex seconds) they carry. */
const DISCORD_CDN_HOSTS = new Set(['cdn.discordapp.com', 'media.discordapp.net']);

/** The `image_url` addresses of a request's messages. */
function imageUrls(body: ChatCompletionRequest): unknown[] {
  const urls: unknown[] = [];
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== 'image_url') continue;
      urls.push((part as { image_url?: { url?: unknown } }).image_url?.url);
    }
  }
  return urls;
}

/** Whether the provider could download an image: a data URL, or an address that has not expired. */
function downloadable(address: string, now: Date): boolean {
  if (address.startsWith('data:image/')) return true;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (!DISCORD_CDN_HOSTS.has(url.hostname)) return true;
  const expiresAt = Number.parseInt(url.searchParams.get('ex') ?? '0', 16) * 1000;
  return expiresAt > now.getTime();
}

/**
 * What OpenRouter answers a request showing images: 404 when no endpoint of the model reads images (its listing has
 * no "image" input modality), 400 from the provider when it could not download one; null when the images are fine.
 */
export function imageRefusal(body: ChatCompletionRequest, models: readonly SimulatedModel[], now: Date): ImageRefusal | null {
  const urls = imageUrls(body);
  if (urls.length === 0) return null;
  const listed = models.find((model) => model.id === body.model);
  if (!listed?.architecture?.input_modalities.includes('image')) return { status: 404, message: 'No endpoints found that support image input' };
  const failed = urls.find((url) => typeof url !== 'string' || !downloadable(url, now));
  if (failed === undefined) return null;
  const raw = JSON.stringify({
    type: 'error',
    error: { type: 'invalid_request_error', message: `Unable to download the file. Please verify the URL and try again.` },
  });
  return { status: 400, message: 'Provider returned error', metadata: { raw, provider_name: 'Anthropic' } };
}
