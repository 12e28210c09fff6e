import { createHash } from 'node:crypto';
import type { Span, SpanData } from '@openai/agents';
import { generationUsage, sanitise, spanName } from './span-mapping.ts';

/** An OTLP/JSON attribute. */
export interface OtlpAttribute {
  key: string;
  value: { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
}

/** An OTLP/JSON span. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: number; message?: string };
}

const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_CLIENT = 3;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

/** An SDK id (`trace_<hex>`, `span_<hex>`) as OTLP hex of `length` characters. */
export function otlpId(id: string, length: 32 | 16): string {
  const hex = id.replace(/^(trace|span|group)_/, '');
  if (/^[0-9a-f]+$/i.test(hex) && hex.length >= length) return hex.slice(0, length).toLowerCase();
  return createHash('sha256').update(id).digest('hex').slice(0, length);
}

function nanos(iso: string | null): string {
  const milliseconds = iso ? Date.parse(iso) : Date.now();
  return (BigInt(milliseconds) * 1_000_000n).toString();
}

function attribute(key: string, value: string | number | boolean | undefined | null): OtlpAttribute[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return [{ key, value: { stringValue: value } }];
  if (typeof value === 'boolean') return [{ key, value: { boolValue: value } }];
  return Number.isInteger(value) ? [{ key, value: { intValue: String(value) } }] : [{ key, value: { doubleValue: value } }];
}

const OPERATIONS: Partial<Record<SpanData['type'], string>> = {
  generation: 'chat',
  agent: 'invoke_agent',
  function: 'execute_tool',
  handoff: 'handoff',
  guardrail: 'guardrail',
  custom: 'custom',
  task: 'task',
  turn: 'turn',
};

function json(value: unknown, secrets: readonly string[]): string | undefined {
  return value === undefined ? undefined : JSON.stringify(sanitise(value, secrets));
}

function typeAttributes(data: SpanData, secrets: readonly string[]): OtlpAttribute[] {
  switch (data.type) {
    case 'generation': {
      const usage = generationUsage(data);
      const responseModel = data.output?.[0]?.model as string | undefined;
      return [
        ...attribute('gen_ai.provider.name', 'openrouter'),
        ...attribute('gen_ai.request.model', data.model),
        ...attribute('gen_ai.response.model', responseModel ?? data.model),
        ...attribute('gen_ai.usage.input_tokens', usage.inputTokens),
        ...attribute('gen_ai.usage.output_tokens', usage.outputTokens),
        ...attribute('brainstorm.cost_usd', usage.costUsd),
        ...attribute('gen_ai.input.messages', json(data.input, secrets)),
        ...attribute('gen_ai.output.messages', json(data.output?.map((output) => output.choices ?? output), secrets)),
      ];
    }
    case 'function':
      return [...attribute('gen_ai.tool.name', data.name), ...attribute('gen_ai.tool.call.arguments', json(data.input, secrets)), ...attribute('gen_ai.tool.call.result', json(data.output, secrets))];
    case 'handoff':
      return [...attribute('brainstorm.handoff.from', data.from_agent), ...attribute('brainstorm.handoff.to', data.to_agent)];
    case 'guardrail':
      return [...attribute('brainstorm.guardrail.name', data.name), ...attribute('brainstorm.guardrail.triggered', data.triggered)];
    case 'custom':
      return attribute('brainstorm.custom.data', json(data.data, secrets));
    default:
      return [];
  }
}

function displayName(data: SpanData): string {
  const operation = OPERATIONS[data.type] ?? data.type;
  return data.type === 'generation' || data.type === 'agent' || data.type === 'function' ? `${operation} ${spanName(data)}` : spanName(data);
}

/** Maps an ended SDK span to an OTLP span with GenAI attribute names. */
export function toOtlpSpan(span: Span<SpanData>, context: { sessionId: string | null; agent: string | undefined; secrets: readonly string[] }): OtlpSpan {
  const data = span.spanData;
  const attributes = [
    ...attribute('gen_ai.operation.name', OPERATIONS[data.type] ?? data.type),
    ...attribute('gen_ai.conversation.id', context.sessionId),
    ...attribute('gen_ai.agent.name', context.agent),
    ...attribute('brainstorm.span.type', data.type),
    ...typeAttributes(data, context.secrets),
  ];
  const error = span.error;
  return {
    traceId: otlpId(span.traceId, 32),
    spanId: otlpId(span.spanId, 16),
    ...(span.parentId ? { parentSpanId: otlpId(span.parentId, 16) } : {}),
    name: displayName(data),
    kind: data.type === 'generation' ? SPAN_KIND_CLIENT : SPAN_KIND_INTERNAL,
    startTimeUnixNano: nanos(span.startedAt),
    endTimeUnixNano: nanos(span.endedAt),
    attributes,
    status: error ? { code: STATUS_ERROR, message: String(sanitise(error.message, context.secrets)) } : { code: STATUS_OK },
  };
}

/** The OTLP/JSON export request body for a batch of spans. */
export function exportRequest(spans: OtlpSpan[], serviceName: string): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: attribute('service.name', serviceName) },
        scopeSpans: [{ scope: { name: 'brainstorm.agents', version: '1' }, spans }],
      },
    ],
  };
}
