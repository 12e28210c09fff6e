import { Agent, InputGuardrailTripwireTriggered, run, setTraceProcessors, user } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  INPUT_GUARDRAIL_NAMES,
  MAX_PLANNER_TOPIC_CHARS,
  participantInputGuardrail,
  plannerInputGuardrail,
} from '../../../../src/agents/guardrails/input-guardrails.ts';
import { installSpanCollector } from './span-collector.ts';

const collector = installSpanCollector();
afterAll(() => setTraceProcessors([]));
beforeEach(() => collector.clear());

const KEY = `sk-or-v1-${'a1b2c3d4'.repeat(8)}`;

function planner(model: ScriptedModel) {
  return new Agent({ name: 'Planner', instructions: 'You are the Planner.', model, inputGuardrails: [plannerInputGuardrail()] });
}

describe('the Planner input guardrail (through the SDK run)', () => {
  it.each([
    ['an empty topic', 'Topic: \u200b  '],
    ['an oversized topic', `Topic: ${'x'.repeat(MAX_PLANNER_TOPIC_CHARS + 1)}`],
    ['a topic carrying a key', `Topic: our gateway, key ${KEY}`],
  ])('stops %s before the model is called', async (_label, topic) => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    await expect(run(planner(model), [user(topic)])).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(model.remainingSteps).toBe(1);
    const spans = collector.ofType('guardrail').map((span) => span.span_data as { name: string; triggered: boolean });
    expect(spans).toContainEqual(expect.objectContaining({ name: INPUT_GUARDRAIL_NAMES.plannerTopic, triggered: true }));
  });

  it('lets a plain topic through to the model', async () => {
    const model = new ScriptedModel([[assistantMessage('What is the budget?')]]);
    const result = await run(planner(model), [user('Topic: how we run incident reviews')]);
    expect(result.finalOutput).toBe('What is the budget?');
  });

  it('looks at every item of the input, not only the topic', async () => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    await expect(run(planner(model), [user('Topic: caching'), user(`Answers from Ana: use ${KEY}`)])).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
  });
});

describe('the participant input guardrail', () => {
  it('keeps a conversation carrying a key from reaching the model', async () => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const agent = new Agent({ name: 'Claude', instructions: 'A participant.', model, inputGuardrails: [participantInputGuardrail()] });
    await expect(run(agent, [user(`#3 [Ana (person)]: the key is ${KEY}`)])).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(model.remainingSteps).toBe(1);
  });
});
