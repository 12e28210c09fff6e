import { run, setTraceProcessors } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentContext } from '../../../../src/core/agent-context.ts';
import { PromptLibrary } from '../../../../src/agents/prompts/prompt-library.ts';
import { createScribeAgent } from '../../../../src/agents/scribe/scribe-agent.ts';
import { createTldrAgent, tldrErrorHandlers } from '../../../../src/agents/tldr/tldr-agent.ts';
import type { ToolPorts } from '../../../../src/core/ports.ts';

function contextWith(documents: Map<string, string>): AgentContext {
  const unused = async (): Promise<never> => {
    throw new Error('not used');
  };
  const ports: ToolPorts = {
    sessionId: 'ses_1',
    postToRoom: unused,
    checkLimits: unused,
    startSession: unused,
    endSession: unused,
    writeDocument: async (kind, markdown) => void documents.set(kind, markdown),
    writeSummary: async (summary) => void documents.set('tldr', JSON.stringify(summary)),
    readDocument: async (kind) => documents.get(kind) ?? null,
    recallSessions: async () => [],
  };
  return { ports, sessionId: 'ses_1' };
}

describe('Scribe and TLDR agents', () => {
  const prompts = new PromptLibrary();
  beforeAll(() => setTraceProcessors([]));

  it('start with the protocol line, and the Scribe stores its record through update_notion', async () => {
    const model = new ScriptedModel([
      [functionCall('update_notion', { document: 'record', markdown: '# Record\n- Claude (#1)' }, { callId: 'c1' })],
      [assistantMessage('# Record\n- Claude (#1)')],
    ]);
    const scribe = createScribeAgent({ model, prompts, title: 'Caching' });
    expect(String(scribe.instructions).split('\n')[0]).toBe('You are the Scribe of a Brainstorm session.');
    expect(String(createTldrAgent({ model, prompts }).instructions).split('\n')[0]).toBe('You are the TLDR of a Brainstorm session.');
    const documents = new Map<string, string>();
    const result = await run(scribe, 'write it', { context: contextWith(documents) });
    expect(documents.get('record')).toBe('# Record\n- Claude (#1)');
    expect(result.finalOutput).toContain('Claude');
  });

  it('reads the record with read_notion and recovers a TLDR answered as plain text', async () => {
    const model = new ScriptedModel([
      [functionCall('read_notion', { document: 'record' }, { callId: 'c1' })],
      [assistantMessage('Summary: caching was chosen.\n\nKey findings:\n- Edge caching (#2)\n- Surrogate keys (#3)\n- Watch stale reads (#1)')],
    ]);
    const tldr = createTldrAgent({ model, prompts });
    const documents = new Map([['record', '# Record\n- #1 #2 #3']]);
    const result = await run(tldr, 'summarise', { context: contextWith(documents), errorHandlers: tldrErrorHandlers() });
    expect(result.finalOutput?.keyFindings.map((finding) => finding.sources)).toEqual([['#2'], ['#3'], ['#1']]);
    expect(JSON.stringify(model.calls[1]?.request.input)).toContain('# Record');
  });

  it('clones with extra handoffs for the wrap-up chain', () => {
    const model = new ScriptedModel([]);
    const tldr = createTldrAgent({ model, prompts });
    const scribe = createScribeAgent({ model, prompts }).clone({ handoffs: [tldr], handoffOutputTypeWarningEnabled: false });
    expect(scribe.handoffs).toHaveLength(1);
    expect(scribe.name).toBe('Scribe');
  });
});
