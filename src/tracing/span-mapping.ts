import type { Span, SpanData } from '@openai/agents';
import { redactSecrets } from '../logging/logger.ts';
import { currentTurnCut, cutSpanError, type CutReason } from '../core/turn-scope.ts';
import type { CallTokens } from '../core/cost.ts';
import { clipText } from '../core/text-clip.ts';

/** Longest string kept in span data; longer ones are cut with a marker. */
const MAX_STRING = 8000;
/** Most messages of a generation's input kept (the latest ones). */
const MAX_INPUT_MESSAGES = 60;

/** Copies a value for storage: secrets masked, long strings cut, functions and cycles dropped. */
export function sanitise(value: unknown, secrets: readonly string[], seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') {
    const masked = redactSecrets(value, secrets);
    return masked.length > MAX_STRING ? `${clipText(masked, MAX_STRING)}… [${masked.length - MAX_STRING} more characters]` : masked;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'object') return undefined;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((entry) => sanitise(entry, secrets, seen) ?? null);
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const copy = sanitise(entry, secrets, seen);
    if (copy !== undefined) result[key] = copy;
  }
  return result;
}

/** The display name of a span. */
export function spanName(data: SpanData): string {
  switch (data.type) {
    case 'agent':
    case 'function':
    case 'custom':
    case 'guardrail':
    case 'task':
      return data.name;
    case 'generation':
      return data.model ?? 'generation';
    case 'handoff':
      return `${data.from_agent ?? '?'} → ${data.to_agent ?? '?'}`;
    case 'turn':
      return `turn ${data.turn} (${data.agent_name})`;
    case 'response':
      return data.response_id ?? 'response';
    default:
      return data.type;
  }
}

function numberAt(source: unknown, key: string): number | undefined {
  const value = (source as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Tokens of a generation span and the cost its provider reported: its usage if set (streamed), else the raw response's. */
export function generationCall(data: SpanData): CallTokens {
  if (data.type !== 'generation') return { inputTokens: 0, outputTokens: 0, providerCostUsd: undefined };
  const raw = data.output?.[0]?.usage as Record<string, unknown> | undefined;
  const usage = data.usage;
  return {
    inputTokens: numberAt(usage, 'input_tokens') ?? numberAt(raw, 'prompt_tokens') ?? 0,
    outputTokens: numberAt(usage, 'output_tokens') ?? numberAt(raw, 'completion_tokens') ?? 0,
    providerCostUsd: numberAt(usage?.details, 'cost') ?? numberAt(usage, 'cost') ?? numberAt(raw, 'cost'),
  };
}

/** Tokens and the provider's cost (0 when it sent none) of a generation span. */
export function generationUsage(data: SpanData): { inputTokens: number; outputTokens: number; costUsd: number } {
  const { providerCostUsd, ...tokens } = generationCall(data);
  return { ...tokens, costUsd: providerCostUsd ?? 0 };
}

/** The message a custom `deliver_message` span (or any custom span with `messageId`) points at. */
export function messageIdOf(data: SpanData): number | null {
  if (data.type !== 'custom') return null;
  const id = numberAt(data.data, 'messageId') ?? Number((data.data as Record<string, unknown> | undefined)?.messageId);
  return Number.isSafeInteger(id) ? id : null;
}

/** The span's data for storage: without its type, inputs trimmed to the latest messages, secrets masked; `withoutInput` leaves the input out. */
export function storedData(span: Span<SpanData>, agent: string | undefined, secrets: readonly string[], withoutInput = false): Record<string, unknown> {
  const { type: _type, input, ...rest } = span.spanData as SpanData & Record<string, unknown>;
  // Without: its row holds it from the span's start (see DbTracingProcessor), and the stored data is merged.
  const data: Record<string, unknown> = withoutInput || input === undefined ? { ...rest } : { ...rest, input };
  if (Array.isArray(data.input) && data.input.length > MAX_INPUT_MESSAGES) {
    data.inputOmitted = data.input.length - MAX_INPUT_MESSAGES;
    data.input = data.input.slice(-MAX_INPUT_MESSAGES);
  }
  if (agent) data.agent = agent;
  return sanitise(data, secrets) as Record<string, unknown>;
}

/** Cuts a person or a handover made; a missed deadline is the endpoint's failure and stays an error. */
const CUTS_WITHOUT_FAULT: ReadonlySet<CutReason> = new Set(['stopped', 'preempted', 'handed_over']);

/** True when a span's error is the abort of its request (the SDK's "Request was aborted.", an AbortError). */
function isAbort(error: { message: string; data?: Record<string, unknown> | null }): boolean {
  return /abort/i.test(`${error.message} ${JSON.stringify(error.data ?? {})}`);
}

/**
 * A span a turn's cut ended. A generation closes quietly in the SDK (the client treats the abort as the stream's end),
 * the run and agent spans around it end with "Request was aborted.": both get the cut's status and reason instead, so
 * a `!stop` or a person speaking first is not counted as errors in the trace viewer, while a missed deadline is (an
 * `aborted` error). Runs where the span ends, inside the turn's scope; an error other than the abort is kept.
 */
export function markCutSpan(span: Span<SpanData>): void {
  const cut = currentTurnCut();
  if (!cut) return;
  if (span.error ? !isAbort(span.error) : span.spanData.type !== 'generation') return;
  span.setError(CUTS_WITHOUT_FAULT.has(cut) ? cutSpanError(cut) : { message: 'aborted', data: { status: 'aborted', reason: cut } });
}
