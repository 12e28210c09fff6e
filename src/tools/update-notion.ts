import { tool, type RunContext } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';

/** `update_notion`: stores a session document (the Scribe's record or the TLDR). Thin: validates, delegates. */
export function createUpdateNotionTool() {
  return tool({
    name: 'update_notion',
    description: 'Store the whole markdown of a session document in Notion (replaces the previous version).',
    parameters: z.object({
      document: z.enum(['record', 'tldr']).describe('"record" for the detailed record, "tldr" for the summary'),
      markdown: z.string().min(1).max(400_000).describe('The complete document in markdown'),
    }),
    async execute({ document, markdown }, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('update_notion needs the session ports in its run context');
      await ports.writeDocument(document, markdown);
      return `stored the ${document}`;
    },
  });
}
