import { Agent, run } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCatalog, type CatalogBreakerChange } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

let fake: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter();
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

/** Runs `action` while moving the manual clock past every back-off it sleeps on (never the wall clock). */
async function drive<T>(clock: ManualClock, action: Promise<T>): Promise<T> {
  let done = false;
  const outcome = action.then(
    (value) => ({ value, error: undefined, failed: false }),
    (error: unknown) => ({ value: undefined, error, failed: true }),
  );
  void outcome.then(() => {
    done = true;
  });
  while (!done) {
    if (clock.pendingSleepers > 0) await clock.advance(1000);
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const settled = await outcome;
  if (settled.failed) throw settled.error;
  return settled.value as T;
}

function setup() {
  const clock = new ManualClock();
  const models = new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: 'sk-test' }).models, { clock });
  const agent = new Agent({ name: 'Grok', instructions: 'You are Grok, a participant in a Brainstorm session.', model: models.participant('grok') });
  const changes: CatalogBreakerChange[] = [];
  models.onBreakerChange((change) => changes.push(change));
  const ask = (stream: boolean) =>
    drive(
      clock,
      (async () => {
        if (!stream) return String((await run(agent, 'Hello')).finalOutput);
        const streamed = await run(agent, 'Hello', { stream: true });
        for await (const _event of streamed) void _event;
        await streamed.completed;
        return String(streamed.finalOutput);
      })(),
    );
  return { clock, models, changes, ask };
}

describe.each([false, true])('a benched participant comes back (streamed: %s)', (stream) => {
  it('open -> half-open -> open -> half-open -> closed after 20 x 500, the trial slot freed each time', async () => {
    const { clock, models, changes, ask } = setup();
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 20 }, () => replies.httpError(500)));
    for (let request = 0; request < 3; request += 1) await expect(ask(stream)).rejects.toMatchObject({ code: 'model_unavailable', reason: 'failed' });
    expect(models.breaker('grok').state).toBe('open');
    const beforeTrial = fake.chats.length;

    await clock.advance(60_000);
    // The half-open trial meets another 500: one attempt only, and the breaker re-opens at once.
    await expect(ask(stream)).rejects.toMatchObject({ code: 'model_unavailable', reason: 'failed', status: 500 });
    expect(fake.chats.length).toBe(beforeTrial + 1);
    expect(models.breaker('grok').state).toBe('open');

    await clock.advance(60_000);
    fake.reset();
    fake.script({ participant: 'Grok' }, replies.text('back again'));
    expect(await ask(stream)).toBe('back again');
    expect(models.breaker('grok')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(changes.map((change) => change.state)).toEqual(['open', 'half_open', 'open', 'half_open', 'closed']);
    expect(changes.every((change) => change.participantIds.join() === 'grok')).toBe(true);
  });
});

describe('breakers are keyed by endpoint and model', () => {
  it('the same model id at another endpoint keeps its own breaker', async () => {
    const clock = new ManualClock();
    const base = buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: 'sk-test' }).models;
    const grokModel = base.roster.find((entry) => entry.id === 'grok')?.model ?? '';
    // The Moderator uses Grok's model id through another endpoint (a second gateway, a local server).
    const moderator = { ...base.roles.moderator, model: grokModel, baseUrl: 'http://127.0.0.2:9/api/v1' };
    const config = { ...base, roles: { ...base.roles, moderator } };
    const models = new ModelCatalog(config, { clock });
    expect(models.modelIdFor('moderator')).toBe(models.modelIdFor('grok'));
    const agent = new Agent({ name: 'Grok', instructions: 'You are Grok, a participant in a Brainstorm session.', model: models.participant('grok') });
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 9 }, () => replies.httpError(404)));
    for (let request = 0; request < 3; request += 1) await expect(run(agent, 'Hello')).rejects.toMatchObject({ code: 'model_unavailable' });
    expect(models.breaker('grok').state).toBe('open');
    expect(models.breaker('moderator').state).toBe('closed');
  });
});
