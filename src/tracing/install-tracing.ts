import { setTraceProcessors, setTracingDisabled, type TracingProcessor } from '@openai/agents';

/**
 * Routes every SDK trace to our processors only (nothing goes to OpenAI's endpoint with an OpenRouter key)
 * and turns tracing on (the SDK turns it off under NODE_ENV=test).
 */
export function installTracing(processors: TracingProcessor[]): void {
  setTraceProcessors(processors);
  setTracingDisabled(false);
}

/** Removes every processor (tests, shutdown): traces go nowhere. */
export function uninstallTracing(): void {
  setTraceProcessors([]);
}
