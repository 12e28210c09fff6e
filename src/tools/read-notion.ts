import { tool, type RunContext } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';

/** `read_notion`: reads a session document back from its store of truth (Notion when configured). Thin. */
export function createReadNotionTool() {
  return tool({
    name: 'read_notion',
    description: 'Read the current markdown of a session document: "record" (the detailed record) or "tldr".',
    parameters: z.object({ document: z.enum(['record', 'tldr']).describe('Which document to read') }),
    async execute({ document }, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('read_notion needs the session ports in its run context');
      return (await ports.readDocument(document)) ?? `No ${document} has been written yet.`;
    },
  });
}
