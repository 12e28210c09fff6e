import { ROOT_CONTEXT, TraceFlags, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, RandomIdGenerator, TracerProvider, type IdGenerator, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from '../logging/logger.ts';
import { redactSecrets } from '../logging/logger.ts';
import type { OtelSpanShape } from './otlp-mapping.ts';

/** How the OpenTelemetry pipeline is built. */
export interface OtelPipelineOptions {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`; spans go to `<endpoint>/v1/traces` as OTLP/HTTP JSON. */
  endpoint: string;
  headers?: Record<string, string> | undefined;
  serviceName?: string | undefined;
  secrets: readonly string[];
  logger?: Logger | undefined;
  maxBatch?: number | undefined;
  flushDelayMs?: number | undefined;
  timeoutMs?: number | undefined;
  /** Replaces the OTLP/HTTP exporter (tests: the SDK's `InMemorySpanExporter`). */
  exporter?: SpanExporter | undefined;
}

/**
 * Ids the next span must carry: the SDK's own, so a trace in Jaeger matches the one in our console.
 * `startSpan` is synchronous, so the slot is set and cleared around one call.
 */
class PresetIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  next: { traceId: string; spanId: string } | undefined;

  generateTraceId(): string {
    return this.next?.traceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.next?.spanId ?? this.random.generateSpanId();
  }
}

/** Reports a refused or failed export to our logger (the SDK would only tell its diag channel). */
class LoggingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly logger: Logger | undefined,
    private readonly secrets: readonly string[],
  ) {}

  export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans, (result) => {
      if (result.error) {
        this.logger?.warn({ err: redactSecrets(result.error.message, this.secrets), spans: spans.length }, 'OTLP export failed; spans dropped');
      }
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  async forceFlush(): Promise<void> {
    await this.inner.forceFlush?.();
  }
}

/** A `TracerProvider` with a `BatchSpanProcessor` and the OTLP/HTTP exporter; records already-ended spans. */
export class OtelPipeline {
  private readonly ids = new PresetIds();
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;

  constructor(options: OtelPipelineOptions) {
    const exporter =
      options.exporter ??
      new OTLPTraceExporter({
        url: `${options.endpoint.replace(/\/$/, '')}/v1/traces`,
        headers: options.headers ?? {},
        timeoutMillis: options.timeoutMs ?? 10_000,
      });
    const maxBatch = options.maxBatch ?? 64;
    this.provider = new TracerProvider({
      resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName ?? 'brainstorm' })),
      idGenerator: this.ids,
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new LoggingExporter(exporter, options.logger, options.secrets),
          maxExportBatchSize: maxBatch,
          maxQueueSize: Math.max(2048, maxBatch),
          scheduledDelayMillis: options.flushDelayMs ?? 1000,
        }),
      ],
    });
    this.tracer = this.provider.getTracer('brainstorm.agents', '1');
  }

  /** Creates the span with its original ids, parent and times, and ends it: the batch processor exports it. */
  record(shape: OtelSpanShape): void {
    const parent = shape.parentSpanId
      ? trace.setSpanContext(ROOT_CONTEXT, { traceId: shape.traceId, spanId: shape.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: false })
      : ROOT_CONTEXT;
    this.ids.next = { traceId: shape.traceId, spanId: shape.spanId };
    let span;
    try {
      span = this.tracer.startSpan(shape.name, { kind: shape.kind, startTime: shape.startTime, attributes: shape.attributes }, parent);
    } finally {
      this.ids.next = undefined;
    }
    span.setStatus(shape.status);
    span.end(shape.endTime);
  }

  /** Exports everything queued. */
  forceFlush(): Promise<void> {
    return this.provider.forceFlush();
  }

  /** Exports everything queued and stops. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
