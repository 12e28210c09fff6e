import { createHash } from 'node:crypto';
import { SpanKind, SpanStatusCode, type Attributes, type SpanStatus } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { Span, SpanData } from '@openai/agents';
import { cutReasonOf } from '../core/turn-scope.ts';
import { generationUsage, sanitise, spanName } from './span-mapping.ts';

/** An ended SDK span in OpenTelemetry terms: ids in OTLP hex, the original times, GenAI attributes. */
export interface OtelSpanShape {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  startTime: Date;
  endTime: Date;
  attributes: Attributes;
  status: SpanStatus;
}

/** What the processor knows about a span beyond the span itself. */
export interface SpanContextInfo {
  sessionId: string | null;
  agent: string | undefined;
  /** The model's id for this tool call, found in the generation that asked for it. */
  toolCallId?: string | undefined;
  secrets: readonly string[];
}

/** An SDK id (`trace_<hex>`, `span_<hex>`) as OTLP hex of `length` characters. */
export function otlpId(id: string, length: 32 | 16): string {
  const hex = id.replace(/^(trace|span|group)_/, '');
  if (/^[0-9a-f]+$/i.test(hex) && hex.length >= length) return hex.slice(0, length).toLowerCase();
  return createHash('sha256').update(id).digest('hex').slice(0, length);
}

const OPERATIONS: Partial<Record<SpanData['type'], string>> = {
  generation: GEN_AI_OPERATION_NAME_VALUE_CHAT,
  agent: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  function: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  handoff: 'handoff',
  guardrail: 'guardrail',
  custom: 'custom',
  task: 'task',
  turn: 'turn',
};

/** Attributes without the empty ones (OTel drops `undefined`, but an empty string would still be sent). */
function compact(entries: Record<string, string | number | boolean | null | undefined>): Attributes {
  const result: Attributes = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined && value !== null && value !== '') result[key] = value;
  return result;
}

function json(value: unknown, secrets: readonly string[]): string | undefined {
  return value === undefined ? undefined : JSON.stringify(sanitise(value, secrets));
}

function typeAttributes(data: SpanData, info: SpanContextInfo): Attributes {
  const { secrets } = info;
  switch (data.type) {
    case 'generation': {
      const usage = generationUsage(data);
      const responseModel = data.output?.[0]?.model as string | undefined;
      return compact({
        [ATTR_GEN_AI_PROVIDER_NAME]: 'openrouter',
        [ATTR_GEN_AI_REQUEST_MODEL]: data.model,
        [ATTR_GEN_AI_RESPONSE_MODEL]: responseModel ?? data.model,
        [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.inputTokens,
        [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.outputTokens,
        'brainstorm.cost_usd': usage.costUsd,
        [ATTR_GEN_AI_INPUT_MESSAGES]: json(data.input, secrets),
        [ATTR_GEN_AI_OUTPUT_MESSAGES]: json(
          data.output?.map((output) => output.choices ?? output),
          secrets,
        ),
      });
    }
    case 'function':
      return compact({
        [ATTR_GEN_AI_TOOL_NAME]: data.name,
        [ATTR_GEN_AI_TOOL_CALL_ID]: info.toolCallId,
        [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: json(data.input, secrets),
        [ATTR_GEN_AI_TOOL_CALL_RESULT]: json(data.output, secrets),
      });
    case 'handoff':
      return compact({ 'brainstorm.handoff.from': data.from_agent, 'brainstorm.handoff.to': data.to_agent });
    case 'guardrail':
      return compact({ 'brainstorm.guardrail.name': data.name, 'brainstorm.guardrail.triggered': data.triggered });
    case 'custom':
      return compact({ 'brainstorm.custom.data': json(data.data, secrets) });
    default:
      return {};
  }
}

function displayName(data: SpanData): string {
  const operation = OPERATIONS[data.type] ?? data.type;
  return data.type === 'generation' || data.type === 'agent' || data.type === 'function' ? `${operation} ${spanName(data)}` : spanName(data);
}

function timeOf(iso: string | null, fallback: Date): Date {
  const milliseconds = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(milliseconds) ? new Date(milliseconds) : fallback;
}

/** Maps an ended SDK span to an OpenTelemetry span with GenAI attribute names; secrets masked. */
export function toOtelSpan(span: Span<SpanData>, info: SpanContextInfo): OtelSpanShape {
  const data = span.spanData;
  const endTime = timeOf(span.endedAt, new Date());
  const error = span.error;
  return {
    traceId: otlpId(span.traceId, 32),
    spanId: otlpId(span.spanId, 16),
    ...(span.parentId ? { parentSpanId: otlpId(span.parentId, 16) } : {}),
    name: displayName(data),
    kind: data.type === 'generation' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    startTime: timeOf(span.startedAt, endTime),
    endTime,
    attributes: {
      ...compact({
        [ATTR_GEN_AI_OPERATION_NAME]: OPERATIONS[data.type] ?? data.type,
        [ATTR_GEN_AI_CONVERSATION_ID]: info.sessionId,
        [ATTR_GEN_AI_AGENT_NAME]: info.agent,
        'brainstorm.span.type': data.type,
        'brainstorm.cut_reason': cutReasonOf(error),
      }),
      ...typeAttributes(data, info),
    },
    status: spanStatus(error, info.secrets),
  };
}

/** A person's cut ends a span as planned (OK; the reason is an attribute, as a status description is for errors only). */
function spanStatus(error: Span<SpanData>['error'], secrets: readonly string[]): SpanStatus {
  if (!error || cutReasonOf(error) !== null) return { code: SpanStatusCode.OK };
  return { code: SpanStatusCode.ERROR, message: String(sanitise(error.message, secrets)) };
}
