import { getOrCreateTrace, withGuardrailSpan } from '@openai/agents';

/** What a guardrail decided, in a form safe to trace: a reason code and details that carry no secret. */
export interface GuardrailDecision {
  triggered: boolean;
  reason?: string;
  details?: Record<string, unknown>;
}

/**
 * Runs a guardrail check inside a guardrail span (in the current trace, or a new trace grouped under the
 * session). A trip marks the span triggered and records the reason code, never the offending text.
 */
export async function traceGuardrail<T extends GuardrailDecision>(
  name: string,
  check: () => T | Promise<T>,
  options: { sessionId?: string | null; traceName?: string; traceId?: string } = {},
): Promise<T> {
  return getOrCreateTrace(
    () =>
      withGuardrailSpan(
        async (span) => {
          const decision = await check();
          span.spanData.triggered = decision.triggered;
          if (decision.triggered) {
            span.setError({ message: `Guardrail ${name} tripped: ${decision.reason ?? 'blocked'}`, data: { reason: decision.reason, ...decision.details } });
          }
          return decision;
        },
        { data: { name } },
      ),
    {
      name: options.traceName ?? `Guardrail ${name}`,
      ...(options.sessionId ? { groupId: options.sessionId } : {}),
      ...(options.traceId ? { traceId: options.traceId } : {}),
    },
  );
}
