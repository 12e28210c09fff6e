import { rememberRawUsage, type RawUsage } from './usage-ledger.ts';
import { getCurrentSpan, type GenerationSpanData, type Span, type StreamEvent } from '@openai/agents';

export type { RawUsage } from './usage-ledger.ts';

function isGenerationSpan(span: Span<never> | Span<GenerationSpanData> | null): span is Span<GenerationSpanData> {
  return span !== null && (span.spanData as { type?: string }).type === 'generation';
}

/**
 * Remembers the raw usage of a streamed response and writes it (with OpenRouter's cost) onto the open generation span: the
 * Chat Completions path leaves `spanData.usage` empty. The span is still current while `response_done` passes.
 */
export function recordStreamUsage(event: StreamEvent): void {
  if (event.type !== 'response_done') return;
  const raw = event.response.rawUsage as RawUsage | undefined;
  rememberRawUsage(event.response.id, raw);
  const span = getCurrentSpan() as Span<GenerationSpanData> | null;
  if (!isGenerationSpan(span)) return;
  const usage = event.response.usage;
  span.spanData.usage = {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(raw?.cost !== undefined ? { details: { cost: raw.cost } } : {}),
  };
}
