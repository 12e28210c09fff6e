import { tool, type RunContext, type ToolInputGuardrailDefinition } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';
import type { SpeakerKind } from '../core/domain.ts';
import { visibleAnswer } from '../core/answer-text.ts';

/** `post_to_discord`: posts a message into the session's room as the calling role. Thin: validates, delegates. */
export function createPostToDiscordTool(
  speaker: { kind: SpeakerKind; name: string },
  options: { inputGuardrails?: ToolInputGuardrailDefinition<AgentContext>[] } = {},
) {
  return tool({
    name: 'post_to_discord',
    description: `Post a message into the session room as the ${speaker.name}.`,
    parameters: z.object({ content: z.string().min(1).max(8000).describe('The message, in markdown') }),
    inputGuardrails: options.inputGuardrails ?? [],
    async execute({ content }, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('post_to_discord needs the session ports in its run context');
      // Posted under the role's name already: a "[Moderator]: " the model copied from the transcript only repeats it.
      const message = visibleAnswer(content, speaker.name).trim();
      if (message === '') return 'Nothing was posted: the message held only your name. Write the message itself.';
      await ports.postToRoom({ kind: speaker.kind, name: speaker.name }, message);
      return 'posted';
    },
  });
}
