import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, run } from '@openai/agents';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelCatalog } from '../../../src/agents/models/index.ts';
import { QUEUE_WAIT_SPAN } from '../../../src/agents/models/queued-admission.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { installSpanCollector } from '../../unit/agents/guardrails/span-collector.ts';

/** A ManualClock that remembers what it was asked to sleep (to know a back-off has begun). */
class WatchedClock extends ManualClock {
  readonly sleeps: number[] = [];
  override sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(milliseconds);
    return super.sleep(milliseconds, signal);
  }
}

const collector = installSpanCollector();
let fake: FakeOpenRouter | undefined;
let clock: WatchedClock;

beforeEach(() => {
  clock = new WatchedClock();
  collector.clear();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(() => collector.clear());

/** A fake that enforces `requestsPerMinute` on the shared clock, and a catalog against it. */
async function setup(requestsPerMinute: number, environment: Record<string, string> = {}) {
  const started = await startFakeOpenRouter({ clock, rateLimit: { requestsPerMinute } });
  fake = started;
  const config = buildConfig({ OPENROUTER_BASE_URL: started.url, OPENROUTER_API_KEY: 'sk-test', ...environment }).models;
  const models = new ModelCatalog(config, { clock });
  const agent = (name: 'Grok' | 'Claude') =>
    new Agent({ name, instructions: `You are ${name}, a participant in a Brainstorm session.`, model: models.participant(name.toLowerCase()) });
  const host = new URL(started.url).host;
  const depth = () => models.queueDepths().find((entry) => entry.endpoint === host)?.depth ?? 0;
  return { fake: started, models, agent, depth };
}

/** Yields to the event loop (real HTTP to the fake) until `condition` holds; the clock does not move. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn += 1) {
    if (turn > 10_000) throw new Error(`condition never held: ${condition.toString()}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function queueWaits(): Array<{ waitedMs: number; reason: string; queuedBehind: number }> {
  return collector
    .ofType('custom')
    .map((span) => span.span_data as { name: string; data: { waitedMs: number; reason: string; queuedBehind: number } })
    .filter((data) => data.name === QUEUE_WAIT_SPAN)
    .map((data) => data.data);
}

describe('endpoint rate limiting through the real client', () => {
  it('queues and paces a burst over MODEL_REQUESTS_PER_MINUTE: nothing is refused, the waits show in the trace', async () => {
    const { fake, agent, depth } = await setup(2, { MODEL_REQUESTS_PER_MINUTE: '2' });
    const outcomes = Promise.all(Array.from({ length: 5 }, (_, index) => run(agent(index % 2 === 0 ? 'Grok' : 'Claude'), `Hello ${index}`)));
    await until(() => fake.chats.length === 2 && depth() === 3);
    await clock.advance(60_000);
    await until(() => fake.chats.length === 4 && depth() === 1);
    await clock.advance(60_000);
    const results = await outcomes;
    expect(results.every((result) => typeof result.finalOutput === 'string' && result.finalOutput.length > 0)).toBe(true);
    expect(fake.chats).toHaveLength(5);
    expect(fake.chats.filter((chat) => chat.rateLimited)).toEqual([]);
    expect(depth()).toBe(0);
    const waits = queueWaits();
    expect(waits.map((wait) => wait.waitedMs).sort((a, b) => a - b)).toEqual([60_000, 60_000, 120_000]);
    // The head of the line waits for the budget; those behind it wait for their turn.
    expect(new Set(waits.map((wait) => wait.reason))).toEqual(new Set(['requests_per_minute', 'queue']));
  });

  it("honours the provider's x-ratelimit headers: a streamed call waits for the reset instead of drawing a 429", async () => {
    const { fake, agent, depth } = await setup(2);
    await run(agent('Grok'), 'One');
    await run(agent('Claude'), 'Two');
    expect(queueWaits()).toEqual([]);
    const streamed = await run(agent('Grok'), 'Three', { stream: true });
    const consumed = (async () => {
      for await (const _event of streamed) void _event;
      await streamed.completed;
    })();
    await until(() => depth() === 1);
    expect(fake.chats).toHaveLength(2);
    await clock.advance(59_999);
    expect(fake.chats).toHaveLength(2);
    await clock.advance(1);
    await consumed;
    expect(streamed.finalOutput).toEqual(expect.any(String));
    expect(fake.chats.filter((chat) => chat.rateLimited)).toEqual([]);
    expect(queueWaits()).toEqual([expect.objectContaining({ waitedMs: 60_000, reason: 'provider_requests', queuedBehind: 0 })]);
  });

  it('without a budget known yet, a first burst that draws 429s waits out the pause and every call answers', async () => {
    const { fake, agent, depth } = await setup(2);
    const outcomes = Promise.all(Array.from({ length: 4 }, (_, index) => run(agent(index % 2 === 0 ? 'Grok' : 'Claude'), `Hello ${index}`)));
    // Two are refused with Retry-After: 60; their back-off is capped at 30 s, the limiter holds them for the rest.
    await until(() => clock.sleeps.filter((milliseconds) => milliseconds === 30_000).length === 2);
    expect(fake.chats.filter((chat) => chat.rateLimited)).toHaveLength(2);
    await clock.advance(30_000);
    await until(() => depth() === 2);
    await clock.advance(30_000);
    const results = await outcomes;
    expect(results.every((result) => typeof result.finalOutput === 'string')).toBe(true);
    expect(fake.chats).toHaveLength(6);
    expect(fake.chats.filter((chat) => chat.rateLimited)).toHaveLength(2);
  });

  it("pauses the whole endpoint for a 429's Retry-After: another caller waits instead of hitting it", async () => {
    const { fake, agent, depth } = await setup(100);
    fake.script({ participant: 'Grok' }, replies.rateLimited(5), replies.text('after the pause'));
    const first = run(agent('Grok'), 'Hello');
    await until(() => clock.sleeps.includes(5000));
    const second = run(agent('Claude'), 'Hello too');
    await until(() => depth() === 1);
    expect(fake.chats).toHaveLength(1);
    await clock.advance(5000);
    expect((await first).finalOutput).toBe('after the pause');
    expect((await second).finalOutput).toEqual(expect.any(String));
    expect(fake.chats).toHaveLength(3);
    expect(queueWaits()).toContainEqual(expect.objectContaining({ waitedMs: 5000, reason: 'retry_after' }));
  });

  it('honours a spent token budget from the headers: the next call waits for the token reset', async () => {
    const { fake, agent, depth } = await setup(100);
    const spent = { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '20s' };
    fake.script({ participant: 'Grok' }, replies.withHeaders(replies.text('that was the last of the tokens'), spent));
    expect((await run(agent('Grok'), 'One')).finalOutput).toBe('that was the last of the tokens');
    const next = run(agent('Claude'), 'Two');
    await until(() => depth() === 1);
    expect(fake.chats).toHaveLength(1);
    await clock.advance(20_000);
    expect((await next).finalOutput).toEqual(expect.any(String));
    expect(queueWaits()).toEqual([expect.objectContaining({ waitedMs: 20_000, reason: 'provider_tokens' })]);
  });

  it("a waiting call is cancelled by its caller's signal and leaves the queue", async () => {
    const { fake, agent, depth } = await setup(10, { MODEL_REQUESTS_PER_MINUTE: '1' });
    await run(agent('Grok'), 'One');
    const controller = new AbortController();
    const waiting = run(agent('Claude'), 'Two', { signal: controller.signal }).catch((error: unknown) => error);
    await until(() => depth() === 1);
    controller.abort(new Error('the turn was cut'));
    expect(await waiting).toBeInstanceOf(Error);
    expect(depth()).toBe(0);
    await clock.advance(60_000);
    expect(fake.chats).toHaveLength(1);
  });

  it("a roster entry lowers its endpoint's pace for every entry there (a small local server)", async () => {
    const started = await startFakeOpenRouter({ clock });
    fake = started;
    const roster = ['Ada', 'Bo'].map((name, index) => ({
      id: name.toLowerCase(),
      name,
      model: 'llama3.1',
      baseUrl: started.url,
      persona: 'A local model.',
      requestsPerMinute: index === 0 ? 1 : 30,
    }));
    const roles = Object.fromEntries(['SESSION_PLANNER_MODEL', 'MODERATOR_MODEL', 'SCRIBE_MODEL', 'TLDR_MODEL'].map((name) => [name, 'bo']));
    const file = join(mkdtempSync(join(tmpdir(), 'roster-')), 'participants.json');
    writeFileSync(file, JSON.stringify(roster));
    const config = buildConfig({
      OPENROUTER_BASE_URL: 'https://openrouter.invalid/api/v1',
      PARTICIPANTS_FILE: file,
      MODEL_REQUESTS_PER_MINUTE: '10',
      ...roles,
    }).models;
    const models = new ModelCatalog(config, { clock });
    const agents = roster.map(({ id, name }) => new Agent({ name, instructions: `You are ${name}, a participant.`, model: models.participant(id) }));
    const host = new URL(started.url).host;
    const outcomes = Promise.all(agents.map((agent) => run(agent, 'Hello')));
    await until(() => started.chats.length === 1 && models.queueDepths().some((entry) => entry.endpoint === host && entry.depth === 1));
    await clock.advance(60_000);
    expect(await outcomes).toHaveLength(2);
    expect(started.chats).toHaveLength(2);
    expect(queueWaits()).toEqual([expect.objectContaining({ waitedMs: 60_000, reason: 'requests_per_minute' })]);
  });
});
