import { Agent, run, user } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCatalog, ModelUnavailableError, type CatalogBreakerChange } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

/** The request deadline (MODEL_REQUEST_TIMEOUT_SECONDS, 120 s by default): every attempt arms one on the clock. */
const DEADLINE_MS = 120_000;

/** A ManualClock that remembers every back-off it was asked for (the per-attempt deadline is not a back-off). */
class RecordingClock extends ManualClock {
  readonly sleeps: number[] = [];
  /** Back-offs a test has already waited for. */
  seen = 0;
  override sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
    if (milliseconds !== DEADLINE_MS) this.sleeps.push(milliseconds);
    return super.sleep(milliseconds, signal);
  }
}

/** Yields to the event loop until the code under test sleeps on its next back-off (no wall-clock waiting). */
async function untilSleeping(clock: RecordingClock): Promise<void> {
  while (clock.sleeps.length <= clock.seen) await new Promise<void>((resolve) => setImmediate(resolve));
  clock.seen = clock.sleeps.length;
}

let fake: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter();
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

function setup() {
  const clock = new RecordingClock();
  const models = new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: 'sk-test' }).models, { clock });
  const agent = new Agent({ name: 'Grok', instructions: 'You are Grok, a participant in a Brainstorm session.', model: models.participant('grok') });
  return { clock, models, agent };
}

describe('retries', () => {
  it('retries a 429 after the advertised Retry-After delay', async () => {
    const { clock, agent } = setup();
    fake.script({ participant: 'Grok' }, replies.rateLimited(7), replies.text('after the wait'));
    const pending = run(agent, 'Hello');
    await untilSleeping(clock);
    expect(clock.sleeps).toEqual([7000]);
    expect(fake.chats).toHaveLength(1);
    await clock.advance(7000);
    expect((await pending).finalOutput).toBe('after the wait');
    expect(fake.chats).toHaveLength(2);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const { clock, agent } = setup();
    const date = new Date(clock.now().getTime() + 12_000).toUTCString();
    fake.script({ participant: 'Grok' }, replies.rateLimited(date), replies.text('ok'));
    const pending = run(agent, 'Hello');
    await untilSleeping(clock);
    expect(clock.sleeps).toEqual([12_000]);
    await clock.advance(12_000);
    expect((await pending).finalOutput).toBe('ok');
  });

  it('backs off 1 s then 2 s on 5xx and an error inside a 200 stream, then succeeds (streamed)', async () => {
    const { clock, agent } = setup();
    fake.script({ participant: 'Grok' }, replies.httpError(503), replies.streamError('upstream exploded'), replies.text('third time lucky'));
    const streamed = await run(agent, 'Hello', { stream: true });
    const consumed = (async () => {
      for await (const _event of streamed) void _event;
      await streamed.completed;
    })();
    await untilSleeping(clock);
    await clock.advance(1000);
    await untilSleeping(clock);
    await clock.advance(2000);
    await consumed;
    expect(clock.sleeps).toEqual([1000, 2000]);
    expect(streamed.finalOutput).toBe('third time lucky');
  });

  it('does not replay a stream that already delivered text', async () => {
    const { clock, agent } = setup();
    fake.script({ participant: 'Grok' }, replies.streamError('cut off', 502, 'Half an answer'), replies.text('never sent'));
    const streamed = await run(agent, 'Hello', { stream: true });
    const outcome = (async () => {
      for await (const _event of streamed) void _event;
      await streamed.completed;
    })().catch((error: unknown) => error);
    expect(await outcome).toMatchObject({ code: 'model_unavailable', status: 502 });
    expect(clock.sleeps).toEqual([]);
    expect(fake.chats).toHaveLength(1);
  });

  it('gives up after 3 attempts with a typed error', async () => {
    const { clock, agent } = setup();
    fake.script({ participant: 'Grok' }, replies.httpError(500), replies.httpError(502), replies.httpError(503));
    const pending = run(agent, 'Hello').catch((error: unknown) => error);
    await untilSleeping(clock);
    await clock.advance(1000);
    await untilSleeping(clock);
    await clock.advance(2000);
    const error = await pending;
    expect(ModelUnavailableError.isModelUnavailable(error)).toBe(true);
    expect((error as ModelUnavailableError).status).toBe(503);
    expect(fake.chats).toHaveLength(3);
  });

  it('never retries a 4xx other than 408/429', async () => {
    const { clock, agent } = setup();
    fake.script({ participant: 'Grok' }, replies.httpError(400, 'bad request'), replies.text('never reached'));
    await expect(run(agent, 'Hello')).rejects.toMatchObject({ code: 'model_unavailable', status: 400 });
    expect(clock.sleeps).toEqual([]);
    expect(fake.chats).toHaveLength(1);
  });

  it('never retries after an abort, and an abort does not count against the breaker', async () => {
    const { clock, agent, models } = setup();
    fake.script({ participant: 'Grok' }, replies.hang());
    const controller = new AbortController();
    const pending = run(agent, 'Hello', { signal: controller.signal }).catch((error: unknown) => error);
    while (fake.chats.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    controller.abort(new Error('stopped by !stop'));
    const error = await pending;
    expect(error).toBeInstanceOf(Error);
    expect(clock.sleeps).toEqual([]);
    expect(fake.chats).toHaveLength(1);
    expect(models.breaker('grok').consecutiveFailures).toBe(0);
  });
});

describe('circuit breaker', () => {
  it('opens after 3 failed requests, fails fast, half-opens after the cool-down and closes on success', async () => {
    const { clock, agent, models } = setup();
    const changes: CatalogBreakerChange[] = [];
    models.onBreakerChange((change) => changes.push(change));
    fake.script({ participant: 'Grok' }, replies.httpError(404, 'No endpoints found'), replies.httpError(404), replies.httpError(404));
    for (let attempt = 0; attempt < 3; attempt += 1) await expect(run(agent, 'Hello')).rejects.toMatchObject({ code: 'model_unavailable' });
    expect(models.breaker('grok').state).toBe('open');
    expect(changes.map((change) => [change.state, change.participantIds])).toEqual([['open', ['grok']]]);

    await expect(run(agent, 'Hello')).rejects.toMatchObject({ code: 'model_unavailable', reason: 'breaker_open' });
    expect(fake.chats).toHaveLength(3);
    expect(models.breaker('claude').state).toBe('closed');

    await clock.advance(60_000);
    fake.script({ participant: 'Grok' }, replies.text('back again'));
    expect((await run(agent, 'Hello')).finalOutput).toBe('back again');
    expect(changes.map((change) => change.state)).toEqual(['open', 'half_open', 'closed']);
  });

  it("never opens for OpenRouter's 404 on images shown to a model that reads none: the request was at fault", async () => {
    const { agent, models } = setup();
    const picture = user([
      { type: 'input_text', text: 'What do you make of this?' },
      { type: 'input_image', image: 'https://example.com/mockup.png' },
    ]);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await expect(run(agent, [picture])).rejects.toMatchObject({ code: 'model_unavailable', status: 404 });
    }
    expect(models.breaker('grok')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect((await run(agent, 'Hello')).finalOutput).toEqual(expect.any(String));
  });
});
