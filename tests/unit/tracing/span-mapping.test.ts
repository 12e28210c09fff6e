import { createAgentSpan, createGenerationSpan, getGlobalTraceProvider, type Span, type SpanData } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { runInTurnScope, TurnCut, type CutReason } from '../../../src/core/turn-scope.ts';
import { installTracing, uninstallTracing } from '../../../src/tracing/install-tracing.ts';
import { markCutSpan } from '../../../src/tracing/span-mapping.ts';

afterEach(() => uninstallTracing());

/** An agent span and its generation in a fresh trace, as a participant's turn has them. */
async function turnSpans(): Promise<{ agent: Span<SpanData>; generation: Span<SpanData> }> {
  installTracing([
    {
      onTraceStart: async () => {},
      onTraceEnd: async () => {},
      onSpanStart: async () => {},
      onSpanEnd: async () => {},
      shutdown: async () => {},
      forceFlush: async () => {},
    },
  ]);
  const trace = getGlobalTraceProvider().createTrace({ name: 'turn' });
  await trace.start();
  const agent = createAgentSpan({ data: { name: 'Claude' } }, trace);
  const generation = createGenerationSpan({ data: { model: 'anthropic/claude-sonnet-4' } }, agent);
  return { agent, generation };
}

/** Runs `work` in a turn cut for `reason` (or one still running, with null). */
function inTurn(reason: CutReason | null, work: () => void): void {
  const controller = new AbortController();
  if (reason) controller.abort(new TurnCut(reason));
  runInTurnScope(controller.signal, work);
}

const SDK_ABORT = { message: 'Error in agent run', data: { error: 'Error: Request was aborted.' } };

describe('markCutSpan', () => {
  it("marks a person's cut as cut short, not an error: the quiet generation and the run's aborted spans alike", async () => {
    for (const reason of ['stopped', 'preempted'] as const) {
      const { agent, generation } = await turnSpans();
      agent.setError(SDK_ABORT);
      inTurn(reason, () => {
        markCutSpan(generation);
        markCutSpan(agent);
      });
      expect(generation.error).toEqual({ message: 'cut short', data: { status: 'cut', reason } });
      expect(agent.error).toEqual({ message: 'cut short', data: { status: 'cut', reason } });
    }
  });

  it('keeps a missed deadline an error, and any error that is not the abort as it was', async () => {
    const { agent, generation } = await turnSpans();
    agent.setError({ message: 'Error in agent run', data: { error: '429 rate limited' } });
    inTurn('answer_deadline', () => {
      markCutSpan(generation);
      markCutSpan(agent);
    });
    expect(generation.error).toEqual({ message: 'aborted', data: { status: 'aborted', reason: 'answer_deadline' } });
    expect(agent.error).toEqual({ message: 'Error in agent run', data: { error: '429 rate limited' } });
  });

  it('leaves spans of a turn still running, and spans outside any turn, untouched', async () => {
    const { agent, generation } = await turnSpans();
    agent.setError(SDK_ABORT);
    inTurn(null, () => markCutSpan(generation));
    markCutSpan(agent);
    expect(generation.error).toBeNull();
    expect(agent.error).toEqual(SDK_ABORT);
  });
});
