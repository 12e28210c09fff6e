import { describe, expect, it } from 'vitest';
import type { ChatCompletionRequest } from '../../../src/simulator/chat-types.ts';
import { imageRefusal } from '../../../src/simulator/image-input.ts';
import { SIMULATED_MODELS } from '../../../src/simulator/pricing.ts';

const now = new Date('2026-05-01T09:00:00Z');
const request = (model: string, url: string): ChatCompletionRequest => ({
  model,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Look:' }, { type: 'image_url', image_url: { url } } as { type: string; text?: string }] }],
});
const discordAddress = (expiresAt: Date) =>
  `https://cdn.discordapp.com/attachments/1/2/a.png?ex=${Math.floor(expiresAt.getTime() / 1000).toString(16)}&is=1&hm=ab&`;

describe("the fake OpenRouter's image input", () => {
  it('refuses images for a model listed as reading text only, or not listed at all (404, as OpenRouter)', () => {
    expect(imageRefusal(request('x-ai/grok-3', 'https://example.com/a.png'), SIMULATED_MODELS, now)).toEqual({
      status: 404,
      message: 'No endpoints found that support image input',
    });
    expect(imageRefusal(request('some/unknown', 'https://example.com/a.png'), SIMULATED_MODELS, now)?.status).toBe(404);
  });

  it("passes an image its provider can fetch, and fails one it cannot with the provider's 400", () => {
    const model = 'anthropic/claude-sonnet-4';
    expect(imageRefusal(request(model, discordAddress(new Date(now.getTime() + 60_000))), SIMULATED_MODELS, now)).toBeNull();
    expect(imageRefusal(request(model, 'data:image/png;base64,iVBORw0KGgo='), SIMULATED_MODELS, now)).toBeNull();
    const expired = imageRefusal(request(model, discordAddress(new Date(now.getTime() - 60_000))), SIMULATED_MODELS, now);
    expect(expired).toMatchObject({ status: 400, message: 'Provider returned error', metadata: { provider_name: 'Anthropic' } });
    expect(imageRefusal(request(model, 'ftp://example.com/a.png'), SIMULATED_MODELS, now)?.status).toBe(400);
  });

  it('says nothing of a request without images', () => {
    expect(imageRefusal({ model: 'x-ai/grok-3', messages: [{ role: 'user', content: 'Hello' }] }, SIMULATED_MODELS, now)).toBeNull();
  });
});
