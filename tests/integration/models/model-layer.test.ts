import { Agent, run, tool } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelCatalog, usageOf } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

const API_KEY = 'sk-or-test-secret';
let fake: FakeOpenRouter;

beforeAll(async () => {
  fake = await startFakeOpenRouter({ apiKey: API_KEY });
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

function catalog(clock = new ManualClock()): ModelCatalog {
  const config = buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: API_KEY });
  return new ModelCatalog(config.models, { clock });
}

function participant(models: ModelCatalog, id = 'claude', name = 'Claude'): Agent {
  return new Agent({ name, instructions: `You are ${name}, a participant in a Brainstorm session.\nBe brief.`, model: models.participant(id) });
}

describe('model layer against the fake OpenRouter', () => {
  it('a participant answers (plain), with usage and cost', async () => {
    fake.script(
      { participant: 'Claude' },
      replies.text('Plain answer from the script.', { usage: { promptTokens: 100, completionTokens: 20, costUsd: 0.0012 } }),
    );
    const result = await run(participant(catalog()), '[Sam]: How do we cut onboarding time?');
    expect(result.finalOutput).toBe('Plain answer from the script.');
    expect(usageOf(result)).toEqual({ inputTokens: 100, outputTokens: 20, costUsd: 0.0012, costSource: 'provider' });
    expect(fake.chats[0]?.body.model).toBe('anthropic/claude-sonnet-4');
    expect(fake.chats[0]?.headers.authorization).toBeUndefined();
  });

  it('a participant answers (streamed), text arriving in several deltas', async () => {
    fake.script({ participant: 'Claude' }, replies.text('One two three four five.', { usage: { promptTokens: 50, completionTokens: 7, costUsd: 0.0005 } }));
    const result = await run(participant(catalog()), '[Sam]: Go.', { stream: true });
    const deltas: string[] = [];
    for await (const event of result) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') deltas.push(event.data.delta);
    }
    await result.completed;
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('One two three four five.');
    expect(result.finalOutput).toBe('One two three four five.');
    expect(usageOf(result)).toEqual({ inputTokens: 50, outputTokens: 7, costUsd: 0.0005, costSource: 'provider' });
    expect(fake.chats[0]?.body.stream).toBe(true);
  });

  it('the demo brain answers a participant when nothing is scripted', async () => {
    const result = await run(participant(catalog(), 'grok', 'Grok'), '[Claude]: We should ship a pilot.');
    expect(result.finalOutput).toContain('(simulated)');
    expect(result.finalOutput).toContain('Claude');
  });

  const verdictSchema = z.object({ action: z.enum(['continue', 'end']), message: z.string() });

  it.each([false, true])('a structured-output agent returns a parsed object (fenced: %s, also streamed)', async (fenced) => {
    const models = catalog();
    const agent = new Agent({
      name: 'Moderator',
      instructions: 'You are the Moderator of a Brainstorm session.',
      model: models.role('moderator'),
      outputType: verdictSchema,
    });
    fake.script(
      { role: 'moderator' },
      replies.json({ action: 'end', message: 'done' }, { fenced }),
      replies.json({ action: 'continue', message: 'go' }, { fenced }),
    );
    const plain = await run(agent, 'Check the discussion.');
    expect(plain.finalOutput).toEqual({ action: 'end', message: 'done' });
    const streamed = await run(agent, 'Check the discussion.', { stream: true });
    await streamed.completed;
    expect(streamed.finalOutput).toEqual({ action: 'continue', message: 'go' });
    const body = fake.chats[0]?.body;
    expect(body?.response_format?.type).toBe('json_schema');
    expect(body?.provider).toEqual({ require_parameters: true });
  });

  it.each([false, true])('a tool called with "" arguments runs (streamed: %s)', async (stream) => {
    let calls = 0;
    const checkLimits = tool({
      name: 'check_limits',
      description: 'Reports the limits.',
      parameters: z.object({}),
      execute: async () => {
        calls += 1;
        return 'within limits';
      },
    });
    const agent = new Agent({ name: 'Checker', instructions: 'Check.', model: catalog().role('moderator'), tools: [checkLimits] });
    fake.script('any', replies.toolCall('check_limits', ''), replies.text('All good.'));
    let finalOutput: unknown;
    if (stream) {
      const streamed = await run(agent, 'Check limits.', { stream: true });
      await streamed.completed;
      finalOutput = streamed.finalOutput;
    } else {
      finalOutput = (await run(agent, 'Check limits.')).finalOutput;
    }
    expect(calls).toBe(1);
    expect(finalOutput).toBe('All good.');
    const toolResult = fake.chats[1]?.body.messages.find((message) => message.role === 'tool');
    expect(toolResult?.content).toBe('within limits');
  });
});
