import type { Span, SpanData } from '@openai/agents';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The tool calls a chat completion asked for (`choices[].message.tool_calls[]`). */
function callsIn(output: unknown): PendingCall[] {
  const calls: PendingCall[] = [];
  for (const response of Array.isArray(output) ? output : []) {
    const choices = record(response)?.choices;
    for (const choice of Array.isArray(choices) ? choices : []) {
      const toolCalls = record(record(choice)?.message)?.tool_calls;
      for (const call of Array.isArray(toolCalls) ? toolCalls : []) {
        const fields = record(call);
        const fn = record(fields?.function);
        if (typeof fields?.id === 'string' && typeof fn?.name === 'string')
          calls.push({ id: fields.id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '' });
      }
    }
  }
  return calls;
}

/**
 * The SDK's function spans carry no tool-call id; the generation that asked for the call does. Calls are
 * remembered per trace and matched to the next function span of the same tool (same arguments first).
 */
export class ToolCallIds {
  private readonly pending = new Map<string, PendingCall[]>();

  /** Reads a generation's tool calls, or returns the id of the call a function span ran. */
  spanEnded(span: Span<SpanData>): string | undefined {
    const data = span.spanData;
    if (data.type === 'generation') {
      const calls = callsIn(data.output);
      if (calls.length > 0) this.pending.set(span.traceId, [...(this.pending.get(span.traceId) ?? []), ...calls]);
      return undefined;
    }
    if (data.type !== 'function') return undefined;
    const calls = this.pending.get(span.traceId) ?? [];
    const sameTool = calls.filter((call) => call.name === data.name);
    const match = sameTool.find((call) => call.arguments === data.input) ?? sameTool[0];
    if (!match) return undefined;
    calls.splice(calls.indexOf(match), 1);
    return match.id;
  }

  /** Forgets a trace's unmatched calls. */
  traceEnded(traceId: string): void {
    this.pending.delete(traceId);
  }
}
