import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, run, withTrace } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelCatalog } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/services/clock.ts';
import { installTracing } from '../../../src/tracing/install-tracing.ts';
import { OtlpTracingProcessor } from '../../../src/tracing/otlp-tracing-processor.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

const SECRET = 'known-otlp-secret-999';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ spans: OtlpSpanBody[] }> }> };
}
interface OtlpSpanBody {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

let receiver: Server;
let endpoint: string;
const received: Received[] = [];
let fake: FakeOpenRouter;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Received['body'] });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fake = await startFakeOpenRouter();
});
afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function attributesOf(span: OtlpSpanBody | undefined): Record<string, unknown> {
  return Object.fromEntries((span?.attributes ?? []).map((entry) => [entry.key, Object.values(entry.value)[0]]));
}

describe('OTLP export', () => {
  it('posts batched spans with GenAI attributes and the session as conversation id', async () => {
    const processor = new OtlpTracingProcessor({ endpoint, headers: { 'x-api-key': 'collector' }, secrets: [SECRET], maxBatch: 100 });
    installTracing([processor]);
    const models = new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: SECRET }).models, { clock: new ManualClock() });
    const agent = new Agent({ name: 'ChatGPT', instructions: 'You are ChatGPT, a participant in a Brainstorm session.', model: models.participant('chatgpt') });
    fake.script({ participant: 'ChatGPT' }, replies.text(`Do not echo ${SECRET}`, { usage: { promptTokens: 40, completionTokens: 9, costUsd: 0.0004 } }));
    await withTrace('turn', async () => run(agent, 'Hi'), { groupId: 'ses_otlp' });
    expect(received).toHaveLength(0);
    await processor.forceFlush();

    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe('/v1/traces');
    expect(received[0]?.headers['x-api-key']).toBe('collector');
    const spans = received[0]?.body.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const generation = spans.find((span) => attributesOf(span)['gen_ai.operation.name'] === 'chat');
    expect(attributesOf(generation)).toMatchObject({
      'gen_ai.conversation.id': 'ses_otlp',
      'gen_ai.agent.name': 'ChatGPT',
      'gen_ai.request.model': 'openai/gpt-4o',
      'gen_ai.provider.name': 'openrouter',
      'gen_ai.usage.input_tokens': '40',
      'gen_ai.usage.output_tokens': '9',
      'brainstorm.cost_usd': 0.0004,
    });
    expect(generation?.name).toBe('chat openai/gpt-4o');
    expect(generation?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(generation?.spanId).toMatch(/^[0-9a-f]{16}$/);
    const agentSpan = spans.find((span) => attributesOf(span)['gen_ai.operation.name'] === 'invoke_agent');
    expect(agentSpan?.name).toBe('invoke_agent ChatGPT');
    expect(JSON.stringify(received)).not.toContain(SECRET);
  });
});
