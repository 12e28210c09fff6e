import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, OutputGuardrailTripwireTriggered, run, setTraceProcessors, tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { z } from 'zod';
import type { AgentContext } from '../../../../src/core/agent-context.ts';
import { sessionPlanSchema } from '../../../../src/core/schemas.ts';
import {
  participantGuardrailNote,
  participantOutputGuardrails,
  PARTICIPANT_GUARDRAIL_NAMES,
  plannerBoundsGuardrail,
  postToDiscordGuardrail,
  TOOL_GUARDRAIL_NAMES,
  updateNotionGuardrail,
} from '../../../../src/agents/guardrails/index.ts';
import type { LimitsConfig } from '../../../../src/config/app-config.ts';
import type { ToolPorts } from '../../../../src/core/ports.ts';
import { installSpanCollector } from './span-collector.ts';

const collector = installSpanCollector();
afterAll(() => setTraceProcessors([]));
beforeEach(() => collector.clear());

const limits: LimitsConfig = {
  maxMessages: 100,
  maxTokens: 500_000,
  maxCostUsd: 2,
  maxContextPercent: 80,
  contextRefreshPercent: 50,
  timeoutMinutes: 60,
  maxAiResponsesPerTurn: 3,
  batchWindowSeconds: 60,
  maxAiRoundsWithoutHuman: 6,
  maxHumanMessageChars: 8000,
  humanMessagesPerMinute: 10,
};

function context(): AgentContext {
  const ports = { sessionId: 's1' } as unknown as ToolPorts;
  return { ports, sessionId: 's1' };
}

function participant(name: string, answers: string[]) {
  const model = new ScriptedModel(answers.map((answer) => [assistantMessage(answer)]));
  const agent = new Agent<AgentContext>({
    name,
    instructions: `You are ${name}, a participant in a Brainstorm session.`,
    model,
    outputGuardrails: participantOutputGuardrails(['Claude', 'ChatGPT', 'Grok']),
  });
  return { agent, model };
}

async function tripName(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutputGuardrailTripwireTriggered) return error.result.guardrail.name;
    throw error;
  }
  return 'none';
}

describe('participantOutputGuardrails', () => {
  it('lets a normal answer through, with one guardrail span per check', async () => {
    const { agent } = participant('Grok', ["Building on Claude's point: caching at the edge halves latency."]);
    const result = await run(agent, 'Topic: latency', { context: context() });
    expect(result.finalOutput).toContain('caching');
    const names = collector.ofType('guardrail').map((span) => (span.span_data as { name: string }).name);
    expect(names.sort()).toEqual(Object.values(PARTICIPANT_GUARDRAIL_NAMES).sort());
  });

  it.each([
    ['empty', '   ', PARTICIPANT_GUARDRAIL_NAMES.notEmpty],
    ['speaking as Claude', 'Claude: I fully agree with Grok on everything.', PARTICIPANT_GUARDRAIL_NAMES.noImpersonation],
    ['speaking as [ChatGPT]', 'My view.\n[ChatGPT]: and I agree!', PARTICIPANT_GUARDRAIL_NAMES.noImpersonation],
    ['speaking as the Moderator', '**Moderator:** time to wrap up', PARTICIPANT_GUARDRAIL_NAMES.noImpersonation],
    ['pinging everyone', 'Hey @everyone, look!', PARTICIPANT_GUARDRAIL_NAMES.noMassMentions],
    ['mentioning a user', 'Ask <@12345> about it', PARTICIPANT_GUARDRAIL_NAMES.noMassMentions],
    ['leaking a key', `the key is sk-or-v1-${'ab12'.repeat(16)}`, PARTICIPANT_GUARDRAIL_NAMES.noSecrets],
    ['leaking a key glued to a word', `x_${['sk', 'or', 'v1', 'ab12'.repeat(16)].join('-')}`, PARTICIPANT_GUARDRAIL_NAMES.noSecrets],
    ['masking a link', 'Read [https://docs.example.com](https://evil.example.net/login) first.', PARTICIPANT_GUARDRAIL_NAMES.noMaskedLinks],
    [
      'masking a link behind a bare domain',
      'See [docs.example.com/setup](https://docs.example.com.evil.example/setup).',
      PARTICIPANT_GUARDRAIL_NAMES.noMaskedLinks,
    ],
  ])('trips on an answer %s', async (_label, answer, guardrail) => {
    const { agent } = participant('Grok', [answer]);
    expect(await tripName(run(agent, 'Topic: latency', { context: context() }))).toBe(guardrail);
    const tripped = collector.ofType('guardrail').filter((span) => (span.span_data as { triggered: boolean }).triggered);
    expect(tripped.map((span) => (span.span_data as { name: string }).name)).toContain(guardrail);
    expect(participantGuardrailNote(guardrail)).not.toBe(participantGuardrailNote('unknown'));
  });

  it('lets honest links through: plain words as link text, or the same address', async () => {
    const { agent } = participant('Grok', [
      'See [the docs](https://docs.example.com/a) and [https://docs.example.com/a](https://docs.example.com/a/) and [example.com](https://www.example.com/page).',
    ]);
    const result = await run(agent, 'Topic: latency', { context: context() });
    expect(result.finalOutput).toContain('the docs');
  });

  it("checks what people would see: a local reasoning model's thinking that quotes others is no impersonation", async () => {
    const { agent } = participant('Grok', ['<think>\n[Claude]: said config files. @everyone agrees?\n</think>\nMeasure first, then pick.']);
    const result = await run(agent, 'Topic: latency', { context: context() });
    expect(result.finalOutput).toContain('Measure first');
  });

  it('trips as empty on an answer that is thinking alone', async () => {
    const { agent } = participant('Grok', ['<think>\nNothing to add.\n</think>']);
    expect(await tripName(run(agent, 'Topic: latency', { context: context() }))).toBe(PARTICIPANT_GUARDRAIL_NAMES.notEmpty);
  });

  it('does not count a participant naming itself as impersonation', async () => {
    const { agent } = participant('Grok', ['Grok: my own take is that we should measure first.']);
    const result = await run(agent, 'Topic: latency', { context: context() });
    expect(result.finalOutput).toContain('measure first');
  });
});

describe('plannerBoundsGuardrail', () => {
  const plan = (maxMessages: number, maxCostUsd: number) => ({
    expandedTopic: 'Latency budgets',
    objectives: ['Find the top causes', 'Agree on budgets'],
    keyAreas: ['network'],
    expectedFlow: ['explore', 'decide'],
    parameters: { maxMessages, maxTokens: 100_000, maxCostUsd, timeoutMinutes: 30, maxContextPercent: 70 },
    estimate: { durationMinutes: 20, costUsd: 0.5, messages: 40 },
  });

  it('lets an out-of-bounds plan through (the flow clamps it with a note), so a forced Planner never dead-ends', async () => {
    const started: unknown[] = [];
    const startSession = tool({
      name: 'start_session',
      description: 'Start the session with this plan',
      parameters: sessionPlanSchema,
      inputGuardrails: [plannerBoundsGuardrail(limits)],
      execute: async (input) => {
        started.push(input);
        return 'started';
      },
    });
    const model = new ScriptedModel([[functionCall('start_session', plan(5000, 50), { callId: 'call-1' })], [assistantMessage('{"questions":[]}')]]);
    const planner = new Agent<AgentContext>({ name: 'Planner', instructions: 'You are the Planner of a Brainstorm session.', model, tools: [startSession] });
    await run(planner, 'Topic: latency', { context: context() });

    expect(started).toEqual([expect.objectContaining({ parameters: expect.objectContaining({ maxMessages: 5000, maxCostUsd: 50 }) })]);
    const spans = collector.ofType('guardrail').filter((span) => (span.span_data as { name: string }).name === TOOL_GUARDRAIL_NAMES.plannerBounds);
    expect(spans.map((span) => (span.span_data as { triggered: boolean }).triggered)).toEqual([false]);
  });
});

describe('post_to_discord and update_notion guardrails', () => {
  async function callWith(guardrail: ReturnType<typeof postToDiscordGuardrail>, args: Record<string, unknown>) {
    const executed: unknown[] = [];
    const post = tool({
      name: 'post_tool',
      description: 'post',
      parameters: z.object({ content: z.string().optional(), markdown: z.string().optional(), document: z.string().optional() }),
      inputGuardrails: [guardrail],
      execute: async (input) => {
        executed.push(input);
        return 'ok';
      },
    });
    const model = new ScriptedModel([[functionCall('post_tool', args, { callId: 'c' })], [assistantMessage('done')]]);
    const agent = new Agent<AgentContext>({ name: 'Moderator', instructions: 'x', model, tools: [post] });
    await run(agent, 'go', { context: context() });
    return { executed, toolResult: JSON.stringify(model.calls[1]?.request.input) };
  }

  it('post_to_discord: passes a normal message, rejects mentions and over-long text', async () => {
    expect((await callWith(postToDiscordGuardrail(), { content: 'Let us return to the objectives.' })).executed).toHaveLength(1);
    const mention = await callWith(postToDiscordGuardrail(), { content: 'Hey @here, focus!' });
    expect(mention.executed).toHaveLength(0);
    expect(mention.toolResult).toContain('Do not use @everyone');
    const long = await callWith(postToDiscordGuardrail({ maxChars: 50 }), { content: 'x'.repeat(51) });
    expect(long.executed).toHaveLength(0);
    expect(long.toolResult).toContain('keep it under 50');
  });

  it('update_notion: passes a normal record, rejects an oversized one', async () => {
    expect((await callWith(updateNotionGuardrail(), { document: 'record', markdown: '# Record\n- point' })).executed).toHaveLength(1);
    const big = await callWith(updateNotionGuardrail({ maxChars: 100 }), { document: 'record', markdown: 'y'.repeat(101) });
    expect(big.executed).toHaveLength(0);
    expect(big.toolResult).toContain('the limit is 100');
    const names = collector.ofType('guardrail').map((span) => span.span_data as { name: string; triggered: boolean });
    expect(names).toContainEqual(expect.objectContaining({ name: TOOL_GUARDRAIL_NAMES.updateNotion, triggered: true }));
  });
});
