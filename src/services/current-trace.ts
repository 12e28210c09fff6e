/** The trace of the agent run the caller is inside, if tracing records one. */
import { getCurrentTrace } from '@openai/agents';

/** The id of the current trace; null outside a run or when tracing is off (the SDK's no-op trace). */
export function currentTraceId(): string | null {
  const trace = getCurrentTrace();
  // The no-op trace (tracing disabled) serialises to null: it is never stored, so nothing may point at it.
  return trace && trace.toJSON() !== null ? trace.traceId : null;
}
