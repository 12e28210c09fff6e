import { describe, expect, it } from 'vitest';
import { run } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { createModeratorAgent } from '../../../../src/agents/moderator/moderator-agent.ts';
import { buildWrapUpChain } from '../../../../src/agents/moderator/wrap-up-chain.ts';
import { PromptLibrary } from '../../../../src/agents/prompts/prompt-library.ts';
import { FakeHost, scriptedScribeAndTldr, verdict } from '../../services/moderation/moderation-fixtures.ts';

const prompts = new PromptLibrary();

describe('createModeratorAgent', () => {
  it('follows the agent protocol: first line, verdict output, its three tools, an output guardrail', () => {
    const agent = createModeratorAgent({ model: new ScriptedModel([]), prompts });
    expect(agent.name).toBe('Moderator');
    expect(String(agent.instructions).split('\n')[0]).toBe('You are the Moderator of a Brainstorm session.');
    expect(agent.tools.map((tool) => tool.name).sort()).toEqual(['check_limits', 'end_session', 'post_to_discord']);
    expect(agent.outputGuardrails).toHaveLength(1);
  });

  it('reads the limits with check_limits and ends through end_session', async () => {
    const host = new FakeHost();
    host.say(['Redis first', 'TTL next']);
    const model = new ScriptedModel([
      [functionCall('check_limits', {}, { callId: 'c1' })],
      [functionCall('end_session', { reason: 'objectives met' }, { callId: 'c2' })],
      [assistantMessage(JSON.stringify(verdict({ action: 'end', objectivesMet: true })))],
    ]);
    const agent = createModeratorAgent({ model, prompts });
    const result = await run(agent, 'Moderation check', { context: { ports: host.toolPorts(), sessionId: host.session.id } });
    expect(result.finalOutput?.action).toBe('end');
    expect(JSON.stringify(model.calls[1]?.request.input)).toContain('messages: 2 of 100 (2%)');
    expect(host.ended).toEqual([{ status: 'completed', reason: 'objectives met' }]);
  });

  it('the wrap-up chain clones the agents with onward handoffs and leaves the originals alone', () => {
    const moderator = createModeratorAgent({ model: new ScriptedModel([]), prompts });
    const { scribe, tldr } = scriptedScribeAndTldr();
    const chain = buildWrapUpChain({ moderator, scribe, tldr, prompts });
    expect(chain.root.handoffs).toHaveLength(1);
    expect(chain.scribe.handoffs).toHaveLength(1);
    expect(moderator.handoffs).toHaveLength(0);
    expect(scribe.handoffs).toHaveLength(0);
    expect(String(chain.root.instructions)).toContain('transfer_to_Scribe');
    expect(String(chain.root.instructions).split('\n')[0]).toBe('You are the Moderator of a Brainstorm session.');
  });
});
