import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Agent, run, tool, withTrace } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelCatalog } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { installTracing, uninstallTracing } from '../../../src/tracing/install-tracing.ts';
import { OtlpTracingProcessor } from '../../../src/tracing/otlp-tracing-processor.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

const SECRET = 'known-otlp-secret-999';

/** An OTLP/HTTP JSON request as a collector (Jaeger, Phoenix, Langfuse) receives it. */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: { resourceSpans: Array<{ resource: { attributes: KeyValue[] }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpanBody[] }> }> };
}
interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface OtlpSpanBody {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes: KeyValue[];
  status: { code?: number; message?: string };
}

let receiver: Server;
let endpoint: string;
const received: Received[] = [];
let fake: FakeOpenRouter;
let failWith: number | null = null;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      if (failWith !== null) {
        response.writeHead(failWith, { 'content-type': 'application/json' }).end('{"code":3,"message":"bad request"}');
        return;
      }
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Received['body'] });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fake = await startFakeOpenRouter();
});
afterAll(async () => {
  uninstallTracing();
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(() => {
  received.length = 0;
  failWith = null;
});

function attributesOf(entries: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((entries ?? []).map((entry) => [entry.key, Object.values(entry.value)[0]]));
}

function nanos(value: string | number | undefined): bigint {
  return BigInt(value ?? 0);
}

async function runParticipantTurn(processor: OtlpTracingProcessor): Promise<void> {
  installTracing([processor]);
  const models = new ModelCatalog(buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: SECRET }).models, { clock: new ManualClock() });
  const checkLimits = tool({
    name: 'check_limits',
    description: 'Reads the session limits.',
    parameters: z.object({ detail: z.string() }),
    execute: async () => 'all within limits',
  });
  const agent = new Agent({
    name: 'ChatGPT',
    instructions: 'You are ChatGPT, a participant in a Brainstorm session.',
    model: models.participant('chatgpt'),
    tools: [checkLimits],
  });
  fake.script(
    { participant: 'ChatGPT' },
    { ...replies.toolCall('check_limits', { detail: 'all' }), usage: { promptTokens: 30, completionTokens: 5, costUsd: 0.0001 } },
    replies.text(`Do not echo ${SECRET}`, { usage: { promptTokens: 40, completionTokens: 9, costUsd: 0.0004 } }),
  );
  await withTrace('turn', async () => run(agent, 'Hi'), { groupId: 'ses_otlp' });
}

describe('OTLP export through the OpenTelemetry SDK', () => {
  it('sends batched OTLP/JSON spans with GenAI attributes, the session as conversation id, and the SDK tree', async () => {
    const processor = new OtlpTracingProcessor({
      endpoint,
      headers: { 'x-api-key': 'collector' },
      secrets: [SECRET],
      serviceName: 'brainstorm-test',
      maxBatch: 100,
    });
    await runParticipantTurn(processor);
    expect(received).toHaveLength(0);
    await processor.forceFlush();

    expect(received).toHaveLength(1);
    const request = received[0] as Received;
    expect(request.path).toBe('/v1/traces');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-api-key']).toBe('collector');
    expect(String(request.headers['user-agent'])).toMatch(/^OTel-OTLP-Exporter-JavaScript\//);
    const resourceSpans = request.body.resourceSpans[0];
    expect(attributesOf(resourceSpans?.resource.attributes)).toMatchObject({ 'service.name': 'brainstorm-test', 'telemetry.sdk.language': 'nodejs' });
    expect(resourceSpans?.scopeSpans[0]?.scope.name).toBe('brainstorm.agents');
    const spans = resourceSpans?.scopeSpans[0]?.spans ?? [];

    const generations = spans.filter((span) => attributesOf(span.attributes)['gen_ai.operation.name'] === 'chat');
    expect(generations).toHaveLength(2);
    const last = generations.find((span) => attributesOf(span.attributes)['gen_ai.usage.output_tokens'] === 9);
    expect(attributesOf(last?.attributes)).toMatchObject({
      'gen_ai.conversation.id': 'ses_otlp',
      'gen_ai.agent.name': 'ChatGPT',
      'gen_ai.request.model': 'openai/gpt-4o',
      'gen_ai.provider.name': 'openrouter',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 9,
      'brainstorm.cost_usd': 0.0004,
    });
    expect(last?.name).toBe('chat openai/gpt-4o');
    expect(last?.kind).toBe(3);
    expect(last?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(last?.spanId).toMatch(/^[0-9a-f]{16}$/);

    const agentSpan = spans.find((span) => attributesOf(span.attributes)['gen_ai.operation.name'] === 'invoke_agent');
    expect(agentSpan?.name).toBe('invoke_agent ChatGPT');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    // The SDK's tree: task > invoke_agent > turn > chat / execute_tool.
    const parentOf = (span: OtlpSpanBody | undefined) => spans.find((candidate) => candidate.spanId === span?.parentSpanId);
    for (const generation of generations) expect(parentOf(parentOf(generation))).toBe(agentSpan);
    expect(attributesOf(parentOf(agentSpan)?.attributes)['brainstorm.span.type']).toBe('task');
    expect(nanos(agentSpan?.startTimeUnixNano)).toBeLessThanOrEqual(nanos(last?.startTimeUnixNano));
    expect(nanos(last?.endTimeUnixNano)).toBeGreaterThanOrEqual(nanos(last?.startTimeUnixNano));

    const toolSpan = spans.find((span) => attributesOf(span.attributes)['gen_ai.operation.name'] === 'execute_tool');
    expect(toolSpan?.name).toBe('execute_tool check_limits');
    expect(parentOf(parentOf(toolSpan))).toBe(agentSpan);
    const toolAttributes = attributesOf(toolSpan?.attributes);
    expect(toolAttributes).toMatchObject({ 'gen_ai.tool.name': 'check_limits', 'gen_ai.tool.call.arguments': JSON.stringify('{"detail":"all"}') });
    // The call id is the one the model sent with the call (the SDK's function span does not carry it).
    const asking = generations.find((span) => span !== last);
    expect(toolAttributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    expect(String(attributesOf(asking?.attributes)['gen_ai.output.messages'])).toContain(`"id":"${String(toolAttributes['gen_ai.tool.call.id'])}"`);
    expect(JSON.stringify(received)).not.toContain(SECRET);
  });

  it('reports a collector that refuses the batch to the logger and keeps the turn going', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ level: 'warn', secrets: [SECRET], destination });
    const processor = new OtlpTracingProcessor({ endpoint, secrets: [SECRET], logger });
    failWith = 400;
    await runParticipantTurn(processor);
    await expect(processor.forceFlush()).resolves.toBeUndefined();
    expect(lines.join('')).toContain('OTLP export failed');
    expect(lines.join('')).not.toContain(SECRET);
    await processor.shutdown();
  });
});
