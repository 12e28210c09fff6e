/** Tracing: SDK traces and spans to our DB, optionally to an OTLP collector; never to OpenAI. */
export { DbTracingProcessor, type DbTracingProcessorOptions } from './db-tracing-processor.ts';
export { OtlpTracingProcessor, type OtlpTracingProcessorOptions } from './otlp-tracing-processor.ts';
export { installTracing, uninstallTracing } from './install-tracing.ts';
