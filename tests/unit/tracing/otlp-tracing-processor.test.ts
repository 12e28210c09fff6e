import { createAgentSpan, createFunctionSpan, createGenerationSpan, getGlobalTraceProvider } from '@openai/agents';
import { SpanKind, SpanStatusCode, type HrTime } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { runInTurnScope, TurnCut } from '../../../src/core/turn-scope.ts';
import { installTracing, uninstallTracing } from '../../../src/tracing/install-tracing.ts';
import { otlpId } from '../../../src/tracing/otlp-mapping.ts';
import { OtlpTracingProcessor } from '../../../src/tracing/otlp-tracing-processor.ts';

const SECRET = 'hunter2-otel-secret';

function milliseconds(time: HrTime): number {
  return time[0] * 1000 + time[1] / 1_000_000;
}

afterEach(() => uninstallTracing());

describe('OtlpTracingProcessor', () => {
  it('records SDK spans as OTel spans with their own ids, parents, times, status and masked data', async () => {
    const exporter = new InMemorySpanExporter();
    const processor = new OtlpTracingProcessor({ endpoint: 'http://127.0.0.1:9', exporter, secrets: [SECRET], flushDelayMs: 60_000 });
    installTracing([processor]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'turn', groupId: 'ses_unit' });
    await trace.start();
    const agent = createAgentSpan({ data: { name: 'Grok' } }, trace);
    agent.start();
    const generation = createGenerationSpan(
      {
        data: {
          model: 'x-ai/grok-4',
          output: [{ choices: [{ message: { tool_calls: [{ id: 'call_42', function: { name: 'recall_sessions', arguments: '{}' } }] } }] }],
        },
      },
      agent,
    );
    generation.start();
    generation.spanData.usage = { input_tokens: 12, output_tokens: 3 };
    generation.end();
    const tool = createFunctionSpan({ data: { name: 'recall_sessions', input: '{}', output: '' } }, agent);
    tool.start();
    tool.setError({ message: `lookup failed with key ${SECRET}`, data: {} });
    tool.end();
    agent.end();
    // The trace ends before the processor has flushed: the spans keep their session and agent.
    await trace.end();
    await processor.forceFlush();

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['chat x-ai/grok-4', 'execute_tool recall_sessions', 'invoke_agent Grok']);
    const [chat, call, invoke] = spans;
    expect(chat?.spanContext()).toMatchObject({ traceId: otlpId(trace.traceId, 32), spanId: otlpId(generation.spanId, 16) });
    expect(chat?.parentSpanContext?.spanId).toBe(invoke?.spanContext().spanId);
    expect(invoke?.parentSpanContext).toBeUndefined();
    expect(milliseconds(chat?.startTime ?? [0, 0])).toBe(Date.parse(generation.startedAt ?? ''));
    expect(milliseconds(chat?.endTime ?? [0, 0])).toBe(Date.parse(generation.endedAt ?? ''));
    expect(chat?.kind).toBe(SpanKind.CLIENT);
    expect(chat?.attributes).toMatchObject({
      'gen_ai.conversation.id': 'ses_unit',
      'gen_ai.agent.name': 'Grok',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(call?.attributes).toMatchObject({ 'gen_ai.tool.name': 'recall_sessions', 'gen_ai.tool.call.id': 'call_42', 'gen_ai.conversation.id': 'ses_unit' });
    expect(call?.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(spans.map((span) => [span.attributes, span.status]))).not.toContain(SECRET);
    await processor.shutdown();
  });

  it('exports a span a person cut (!stop) as OK with the reason, a missed deadline as an error', async () => {
    const exporter = new InMemorySpanExporter();
    const processor = new OtlpTracingProcessor({ endpoint: 'http://127.0.0.1:9', exporter, secrets: [], flushDelayMs: 60_000 });
    installTracing([processor]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'turn', groupId: 'ses_cut' });
    await trace.start();
    for (const reason of ['stopped', 'answer_deadline'] as const) {
      const controller = new AbortController();
      controller.abort(new TurnCut(reason));
      const generation = createGenerationSpan({ data: { model: reason } }, trace);
      generation.start();
      runInTurnScope(controller.signal, () => generation.end());
    }
    await trace.end();
    await processor.forceFlush();
    const byModel = new Map(exporter.getFinishedSpans().map((span) => [span.name, span]));
    expect(byModel.get('chat stopped')?.status).toEqual({ code: SpanStatusCode.OK });
    expect(byModel.get('chat stopped')?.attributes['brainstorm.cut_reason']).toBe('stopped');
    expect(byModel.get('chat answer_deadline')?.status.code).toBe(SpanStatusCode.ERROR);
    await processor.shutdown();
  });
});
