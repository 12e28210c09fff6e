/** Pricing a model call: the provider's cost, else the admin's price, else OpenRouter's list, else unknown. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelCatalog } from '../../../../src/agents/models/model-catalog.ts';
import { ModelListing, parseModelsList, type ListedModel } from '../../../../src/agents/models/model-listing.ts';
import { PriceTable } from '../../../../src/agents/models/price-table.ts';
import { buildConfig } from '../../../../src/config/load-config.ts';
import { parseModelPrices } from '../../../../src/config/model-prices.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import { weakerSource } from '../../../../src/core/cost.ts';

const LISTING = parseModelsList({
  data: [
    { id: 'openai/gpt-4o', context_length: 128_000, pricing: { prompt: '0.0000025', completion: '0.00001' } },
    { id: 'anthropic/claude-sonnet-4', pricing: { prompt: '0.000003', completion: '0.000015' } },
    { id: 'openrouter/auto', pricing: { prompt: '-1', completion: '-1' } },
    { id: 'meta-llama/llama-3.1-8b-instruct', pricing: { prompt: '0.00000002', completion: '0.00000005' } },
    { id: 'other-host/llama-3.1-8b-instruct', pricing: { prompt: '0.00000003', completion: '0.00000006' } },
  ],
});

function table(options: { configured?: string; local?: string[]; listing?: ReadonlyMap<string, ListedModel> | null } = {}): PriceTable {
  const listing = options.listing === undefined ? LISTING : options.listing;
  return new PriceTable({
    listing: { current: () => listing },
    configured: parseModelPrices(options.configured),
    localModels: new Set(options.local ?? []),
  });
}

const tokens = (inputTokens: number, outputTokens: number, providerCostUsd?: number) => ({ inputTokens, outputTokens, providerCostUsd });

describe('price table', () => {
  it('takes the provider’s cost when it sent one, even 0 (a free model)', () => {
    expect(table().costOf('openai/gpt-4o', tokens(1000, 100, 0.0042))).toEqual({ costUsd: 0.0042, costSource: 'provider' });
    expect(table().costOf('openai/gpt-4o', tokens(1000, 100, 0))).toEqual({ costUsd: 0, costSource: 'provider' });
  });

  it('estimates from OpenRouter’s per-token prices when the provider sent no cost', () => {
    expect(table().costOf('openai/gpt-4o', tokens(100_000, 10_000))).toEqual({ costUsd: 0.35, costSource: 'price_table' });
  });

  it('finds a direct provider’s id under its OpenRouter vendor prefix, only when one listed id matches', () => {
    expect(table().costOf('gpt-4o', tokens(100_000, 10_000))).toEqual({ costUsd: 0.35, costSource: 'price_table' });
    // Two hosts list a model of that name: no guess.
    expect(table().costOf('llama-3.1-8b-instruct', tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'unknown' });
  });

  it('prefers the admin’s MODEL_PRICES (USD per million tokens) over OpenRouter’s list', () => {
    const configured = JSON.stringify({ 'openai/gpt-4o': { promptPerMillion: 1, completionPerMillion: 2 } });
    expect(table({ configured }).costOf('openai/gpt-4o', tokens(1_000_000, 500_000))).toEqual({ costUsd: 2, costSource: 'config' });
  });

  it('says unknown, at 0, for a model nothing prices, a variable-priced router, or before the list arrived', () => {
    expect(table().costOf('mystery/model', tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'unknown' });
    expect(table().costOf('openrouter/auto', tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'unknown' });
    expect(table({ listing: null }).costOf('openai/gpt-4o', tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'unknown' });
    expect(table().costOf(undefined, tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'unknown' });
  });

  it('never prices a keyless local model from OpenRouter’s list: unknown unless the admin priced it (0 is a price too)', () => {
    expect(table({ local: ['gpt-4o'] }).costOf('gpt-4o', tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'unknown' });
    const configured = JSON.stringify({ 'gpt-4o': { promptPerMillion: 0, completionPerMillion: 0 } });
    expect(table({ local: ['gpt-4o'], configured }).costOf('gpt-4o', tokens(1000, 1000))).toEqual({ costUsd: 0, costSource: 'config' });
  });

  it('knows the keyless models of a roster from the config', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'roster-')), 'local.json');
    writeFileSync(file, JSON.stringify([{ id: 'llama', name: 'Llama', model: 'gpt-4o', baseUrl: 'http://127.0.0.1:11434/v1', persona: 'Local.' }]));
    const config = buildConfig({
      PARTICIPANTS_FILE: file,
      SESSION_PLANNER_MODEL: 'llama',
      MODERATOR_MODEL: 'llama',
      SCRIBE_MODEL: 'llama',
      TLDR_MODEL: 'llama',
    });
    const listed = { data: [{ id: 'openai/gpt-4o', pricing: { prompt: '0.0000025', completion: '0.00001' } }] };
    const catalog = new ModelCatalog(config.models, { clock: new ManualClock(), fetch: async () => Response.json(listed) });
    await catalog.warmUp();
    expect(catalog.prices.costOf('gpt-4o', tokens(1000, 1000)).costSource).toBe('unknown');
    // The same id on a keyed endpoint is priced from the list.
    expect(catalog.prices.costOf('openai/gpt-4o', tokens(1000, 1000)).costSource).toBe('price_table');
  });

  it('reads prices from OpenRouter (no key needed) when only a direct key is set, never from the simulator’s made-up list', async () => {
    const asked: string[] = [];
    const listed = { data: [{ id: 'openai/gpt-4.1', pricing: { prompt: '0.000002', completion: '0.000008' } }] };
    const fetch: typeof globalThis.fetch = async (input) => {
      asked.push(String(input));
      return Response.json(String(input).startsWith('http://127.0.0.1:8/') ? listed : { data: [] });
    };
    const config = buildConfig({ OPENAI_API_KEY: 'test-direct-key', OPENAI_MODEL: 'openai/gpt-4.1', OPENROUTER_BASE_URL: 'http://127.0.0.1:8/api/v1' });
    const catalog = new ModelCatalog(config.models, { clock: new ManualClock(), fetch, simulatorUrl: 'http://127.0.0.1:7/api/v1' });
    await catalog.warmUp();
    expect(asked.sort()).toEqual(['http://127.0.0.1:7/api/v1/models', 'http://127.0.0.1:8/api/v1/models']);
    expect(catalog.prices.costOf('gpt-4.1', tokens(1_000_000, 0))).toEqual({ costUsd: 2, costSource: 'price_table' });
  });

  it('rejects a malformed MODEL_PRICES with one line naming the variable', () => {
    expect(() => parseModelPrices('{gpt')).toThrow(/^MODEL_PRICES: not JSON/);
    expect(() => parseModelPrices('{"gpt-4o":{"prompt":2.5}}')).toThrow(/^MODEL_PRICES: /);
    expect(() => parseModelPrices('{"gpt-4o":{"promptPerMillion":-1,"completionPerMillion":1}}')).toThrow(/^MODEL_PRICES: /);
    expect(parseModelPrices('')).toEqual({});
  });

  it('ranks sources so a sum is as certain as its least certain part', () => {
    expect(weakerSource('provider', 'price_table')).toBe('price_table');
    expect(weakerSource('unknown', 'provider')).toBe('unknown');
    expect(weakerSource('config', 'provider')).toBe('config');
  });
});

describe('model listing', () => {
  function listingWith(responses: Array<() => Response>, clock: ManualClock) {
    let calls = 0;
    const fetch: typeof globalThis.fetch = async () => {
      const next = responses[Math.min(calls, responses.length - 1)];
      calls += 1;
      if (!next) throw new Error('no response');
      return next();
    };
    return { listing: new ModelListing({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: undefined, fetch, timeoutMs: 1000, clock }), calls: () => calls };
  }
  const ok = () => Response.json({ data: [{ id: 'openai/gpt-4o', context_length: 128_000, pricing: { prompt: '0.0000025', completion: '0.00001' } }] });
  const down = () => new Response('down', { status: 503 });

  it('is fetched once, read without waiting, and refreshed in the background only after a day', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const { listing, calls } = listingWith([ok], clock);
    expect(listing.current()).toBeNull();
    await listing.refresh();
    expect(listing.current()?.get('openai/gpt-4o')?.price).toEqual({ prompt: 0.0000025, completion: 0.00001 });
    await listing.get();
    expect(calls()).toBe(1);
    await clock.advance(25 * 60 * 60 * 1000);
    listing.current();
    await listing.refresh();
    expect(calls()).toBe(2);
  });

  it('tolerates a failed fetch: keeps what it knew, retries only after a while', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const { listing, calls } = listingWith([down, ok], clock);
    expect(await listing.get()).toBeNull();
    expect(await listing.get()).toBeNull();
    expect(calls()).toBe(1);
    await clock.advance(6 * 60 * 1000);
    expect((await listing.get())?.has('openai/gpt-4o')).toBe(true);
    expect(calls()).toBe(2);
  });
});
