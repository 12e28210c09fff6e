import { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import type { AgentContext } from '../../../src/core/agent-context.ts';
import type { ToolPorts } from '../../../src/core/ports.ts';
import { createPostToDiscordTool } from '../../../src/tools/post-to-discord.ts';
import { stub } from '../../support/service-doubles.ts';

/** The tool as a run calls it, with the room's posts kept. */
function moderatorTool() {
  const posted: string[] = [];
  const ports = stub<ToolPorts>('tool ports', {
    sessionId: 's1',
    postToRoom: async (_speaker, content) => {
      posted.push(content);
    },
  });
  const context = new RunContext<AgentContext>({ ports, sessionId: 's1' });
  const tool = createPostToDiscordTool({ kind: 'moderator', name: 'Moderator' });
  return { posted, call: (content: string) => tool.invoke(context, JSON.stringify({ content })) };
}

describe('post_to_discord', () => {
  it("posts without a leading label of the role's own name, which models copy from the transcript", async () => {
    const { posted, call } = moderatorTool();
    expect(await call('[Moderator]: Back to the rollout plan, please.')).toBe('posted');
    expect(posted).toEqual(['Back to the rollout plan, please.']);
  });

  it('posts nothing when the message was the label alone, and tells the model why', async () => {
    const { posted, call } = moderatorTool();
    expect(await call('**Moderator:**')).toMatch(/Nothing was posted/);
    expect(posted).toEqual([]);
  });
});
