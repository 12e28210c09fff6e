import { describe, expect, it } from 'vitest';
import { IMAGE_REFUSAL_MS, ImageSupport } from '../../../../src/agents/models/image-support.ts';
import { ModelListing, parseModelsList } from '../../../../src/agents/models/model-listing.ts';
import { ManualClock } from '../../../../src/core/clock.ts';

const listed = {
  data: [
    { id: 'anthropic/claude-sonnet-4', architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] } },
    { id: 'x-ai/grok-3', architecture: { input_modalities: ['text'], output_modalities: ['text'] } },
    { id: 'some/unlisted-modalities' },
  ],
};

function support(body: unknown = listed) {
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  const fetch: typeof globalThis.fetch = async () => new Response(JSON.stringify(body), { status: 200 });
  const listing = new ModelListing({ baseUrl: 'http://models.test/api/v1', apiKey: undefined, fetch, timeoutMs: 1000, clock });
  return { clock, images: new ImageSupport(listing, clock) };
}

describe('which models are shown images', () => {
  it('reads `architecture.input_modalities` from the model list', () => {
    const models = parseModelsList(listed);
    expect(models.get('anthropic/claude-sonnet-4')?.inputModalities).toEqual(['text', 'image']);
    expect(models.get('some/unlisted-modalities')?.inputModalities).toBeUndefined();
  });

  it('the listing decides unless the roster says; an unknown model is sent none', async () => {
    const { images } = support();
    expect(await images.accepts({ model: 'anthropic/claude-sonnet-4' })).toBe(true);
    expect(await images.accepts({ model: 'x-ai/grok-3' })).toBe(false);
    expect(await images.accepts({ model: 'some/unlisted-modalities' })).toBe(false);
    expect(await images.accepts({ model: 'llava:13b' })).toBe(false);
    expect(await images.accepts({ model: 'llava:13b', images: true })).toBe(true);
    expect(await images.accepts({ model: 'anthropic/claude-sonnet-4', images: false })).toBe(false);
  });

  it('a model whose endpoint refused images is sent none for an hour, whatever the roster says', async () => {
    const { images, clock } = support();
    const grok = { model: 'x-ai/grok-3', images: true };
    images.refused(grok);
    expect(await images.accepts(grok)).toBe(false);
    await clock.advance(IMAGE_REFUSAL_MS - 1);
    expect(await images.accepts(grok)).toBe(false);
    await clock.advance(1);
    expect(await images.accepts(grok)).toBe(true);
  });

  it('a listing that cannot be fetched shows no images', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const fetch: typeof globalThis.fetch = async () => new Response('{}', { status: 503 });
    const listing = new ModelListing({ baseUrl: 'http://models.test/api/v1', apiKey: undefined, fetch, timeoutMs: 1000, clock });
    expect(await new ImageSupport(listing, clock).accepts({ model: 'anthropic/claude-sonnet-4' })).toBe(false);
  });
});
