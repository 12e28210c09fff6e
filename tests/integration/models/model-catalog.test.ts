import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FALLBACK_CONTEXT_WINDOW, ModelCatalog } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

let fake: FakeOpenRouter;
let noEmbeddings: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter();
  noEmbeddings = await startFakeOpenRouter({ embeddings: false });
});
afterAll(async () => {
  await fake.close();
  await noEmbeddings.close();
});
beforeEach(() => {
  fake.reset();
  noEmbeddings.reset();
});

function catalogFor(url: string, extra: Record<string, string> = {}): ModelCatalog {
  return new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: url, OPENROUTER_API_KEY: 'sk-test', ...extra }).models, { clock: new ManualClock() });
}

describe('ModelCatalog', () => {
  it('resolves participants and roles to model ids and shares one model per id', () => {
    const catalog = catalogFor(fake.url, { GROK_MODEL: 'x-ai/grok-4' });
    expect(catalog.modelIdFor('grok')).toBe('x-ai/grok-4');
    expect(catalog.modelIdFor('planner')).toBe('anthropic/claude-sonnet-4');
    expect(catalog.role('planner')).toBe(catalog.participant('claude'));
    expect(() => catalog.participant('nobody')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('reads context windows from /models once, with roster override and fallback', async () => {
    const catalog = catalogFor(fake.url);
    expect(await catalog.contextWindow('anthropic/claude-sonnet-4')).toBe(200000);
    expect(await catalog.contextWindow('x-ai/grok-3')).toBe(131072);
    expect(await catalog.contextWindow('unknown/model')).toBe(FALLBACK_CONTEXT_WINDOW);
    expect(fake.requests.filter((request) => request.path === '/api/v1/models')).toHaveLength(1);
  });

  it('embeds texts in order, and remembers when the endpoint has no embeddings', async () => {
    const vectors = await catalogFor(fake.url).embed(['alpha beta', 'gamma']);
    expect(vectors).toHaveLength(2);
    expect(vectors?.[0]?.length).toBe(256);
    const without = catalogFor(noEmbeddings.url);
    expect(await without.embed(['a'])).toBeNull();
    expect(await without.embed(['b'])).toBeNull();
    expect(noEmbeddings.requests.filter((request) => request.path === '/api/v1/embeddings')).toHaveLength(1);
  });

  it('sends every model to the override URL in demo mode', async () => {
    const config = buildConfig({}).models;
    expect(config.demoMode).toBe(true);
    const catalog = new ModelCatalog(config, { clock: new ManualClock(), baseUrlOverride: fake.url });
    expect(await catalog.contextWindow('openai/gpt-4o')).toBe(128000);
    expect(fake.requests).toHaveLength(1);
  });
});
