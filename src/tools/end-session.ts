import { tool, type RunContext } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';

/** `end_session`: asks the services to end the session (they run the wrap-up); thin, delegates to the ports. */
export function createEndSessionTool() {
  return tool({
    name: 'end_session',
    description: 'End the discussion now (objectives met, limits reached, or drift persists). The wrap-up follows.',
    parameters: z.object({ reason: z.string().min(1).max(500).describe('Why the session ends, in one sentence') }),
    async execute({ reason }, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('end_session needs the session ports in its run context');
      await ports.endSession(reason);
      return 'The session will end after this turn; the wrap-up follows.';
    },
  });
}
