import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/index.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

let simulator: SimulatorHandle;
let fake: FakeOpenRouter;
beforeAll(async () => {
  simulator = await startSimulator();
  fake = await startFakeOpenRouter({ apiKey: 'sk-right' });
});
afterAll(async () => {
  await simulator.close();
  await fake.close();
});

const chat = {
  model: 'openai/gpt-4o',
  messages: [
    { role: 'system', content: 'You are Claude, a participant in a Brainstorm session.' },
    { role: 'user', content: '[Ana]: Hello there' },
  ],
};

async function post(base: string, path: string, body: unknown, key = 'sk-right'): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
}

function dataLines(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6));
}

describe('simulator over HTTP', () => {
  it('streams SSE with the keep-alive comment, deltas, a usage chunk with cost, and [DONE]', async () => {
    const response = await post(simulator.url, '/chat/completions', { ...chat, stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text.startsWith(': OPENROUTER PROCESSING\n\n')).toBe(true);
    const data = dataLines(text);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line) as { choices: Array<{ delta: { content?: string } }>; usage?: Record<string, number> });
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(content).toContain('Ana');
    const usage = chunks.at(-1)?.usage;
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(usage?.cost).toBeGreaterThan(0);
  });

  it('answers non-streamed with usage priced per model', async () => {
    const cheap = (await (await post(simulator.url, '/chat/completions', { ...chat, model: 'openai/gpt-4o' })).json()) as {
      usage: { cost: number; prompt_tokens: number };
    };
    const dear = (await (await post(simulator.url, '/chat/completions', { ...chat, model: 'anthropic/claude-sonnet-4' })).json()) as {
      usage: { cost: number; prompt_tokens: number };
    };
    expect(cheap.usage.prompt_tokens).toBe(dear.usage.prompt_tokens);
    expect(dear.usage.cost).toBeGreaterThan(cheap.usage.cost);
  });

  it('can answer like an endpoint that sends tokens but no cost (OpenAI, Anthropic, Ollama)', async () => {
    const direct = await startFakeOpenRouter({ reportsCost: false });
    try {
      const plain = (await (await post(direct.url, '/chat/completions', chat)).json()) as { usage: Record<string, number> };
      expect(plain.usage.prompt_tokens).toBeGreaterThan(0);
      expect(plain.usage).not.toHaveProperty('cost');
      const streamed = await (await post(direct.url, '/chat/completions', { ...chat, stream: true, stream_options: { include_usage: true } })).text();
      const usage = (JSON.parse(dataLines(streamed).at(-2) ?? '{}') as { usage?: Record<string, number> }).usage;
      expect(usage?.completion_tokens).toBeGreaterThan(0);
      expect(usage).not.toHaveProperty('cost');
    } finally {
      await direct.close();
    }
  });

  it('lists models with OpenRouter-style per-token prices as strings', async () => {
    const models = (await (await fetch(`${simulator.url}/models`)).json()) as { data: Array<{ id: string; pricing: { prompt: string; completion: string } }> };
    expect(models.data.find((model) => model.id === 'openai/gpt-4o')?.pricing).toEqual({ prompt: '0.0000025', completion: '0.00001' });
  });

  it('lists models with context_length and serves embeddings that carry meaning', async () => {
    const models = (await (await fetch(`${simulator.url}/models`)).json()) as { data: Array<{ id: string; context_length: number }> };
    expect(models.data.find((model) => model.id === 'anthropic/claude-sonnet-4')?.context_length).toBe(200000);
    const texts = ['Pricing plans for the new subscription tiers', 'Subscription pricing and plan tiers for customers', 'The recipe needs two eggs and flour'];
    const body = (await (await post(simulator.url, '/embeddings', { model: 'openai/text-embedding-3-small', input: texts })).json()) as {
      data: Array<{ embedding: number[] }>;
    };
    const [a, b, c] = body.data.map((entry) => entry.embedding);
    const dot = (x: number[] = [], y: number[] = []) => x.reduce((sum, value, index) => sum + value * (y[index] ?? 0), 0);
    expect(dot(a, a)).toBeCloseTo(1, 5);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.2);
  });

  it('rejects bad requests with OpenRouter error bodies', async () => {
    const response = await post(simulator.url, '/chat/completions', { messages: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 400, message: 'model and messages are required' } });
    expect((await post(fake.url, '/chat/completions', chat, 'sk-wrong')).status).toBe(401);
  });
});

describe('fake OpenRouter faults and log', () => {
  it('sends 429 with Retry-After and an error object inside a 200 stream', async () => {
    fake.script('any', replies.rateLimited(3), replies.streamError('overloaded', 503, 'Partial answer'));
    const limited = await post(fake.url, '/chat/completions', chat);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({ error: { code: 429, message: 'Rate limit exceeded' } });
    const broken = await post(fake.url, '/chat/completions', { ...chat, stream: true });
    expect(broken.status).toBe(200);
    const data = dataLines(await broken.text()).map((line) => JSON.parse(line) as { error?: unknown; choices: Array<{ delta: { content?: string } }> });
    expect(data.map((chunk) => chunk.choices[0]?.delta.content).join('')).toBe('Partial answer');
    expect(data.at(-1)?.error).toEqual({ code: 503, message: 'overloaded' });
  });

  it('hangs until the client aborts, and logs requests without Authorization', async () => {
    fake.reset();
    fake.script({ participant: 'Claude' }, replies.hang());
    const controller = new AbortController();
    const pending = fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-right' },
      body: JSON.stringify(chat),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    while (fake.chats.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/chat/completions' });
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(fake.chats[0]).toMatchObject({ scripted: true, agent: { role: 'participant', name: 'Claude' } });
    expect(fake.pending({ participant: 'Claude' })).toBe(0);
  });
});

describe('latency and time to first token', () => {
  it('holds the response for the latency, then the first token, on the injected clock', async () => {
    const clock = new ManualClock();
    const timed = await startFakeOpenRouter({ clock, latencyMs: 100 });
    try {
      timed.script('any', replies.text('slow answer', { timing: { latencyMs: 500, firstTokenMs: 300 } }));
      let headersArrived = false;
      let bodyDone = false;
      const pending = post(timed.url, '/chat/completions', { ...chat, stream: true }).then(async (response) => {
        headersArrived = true;
        const text = await response.text();
        bodyDone = true;
        return text;
      });
      const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
      while (clock.pendingSleepers === 0) await yieldTurn();
      await clock.advance(499);
      expect(headersArrived).toBe(false);
      await clock.advance(1);
      while (!headersArrived || clock.pendingSleepers === 0) await yieldTurn();
      expect(bodyDone).toBe(false);
      await clock.advance(300);
      const text = await pending;
      expect(
        dataLines(text)
          .slice(0, -1)
          .map((line) => (JSON.parse(line) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
          .join(''),
      ).toBe('slow answer');
    } finally {
      await timed.close();
    }
  });
});
