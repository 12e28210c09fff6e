import { tool, type RunContext } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';

/** `recall_sessions`: past sessions on similar topics, with their summaries (embeddings). Thin. */
export function createRecallSessionsTool() {
  return tool({
    name: 'recall_sessions',
    description: 'Find past Brainstorm sessions on similar topics and return their summaries.',
    parameters: z.object({
      query: z.string().min(1).max(2000).describe('The topic or question to look for'),
      limit: z.number().int().min(1).max(10).describe('How many sessions to return (3 is usual)'),
    }),
    async execute({ query, limit }, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('recall_sessions needs the session ports in its run context');
      const sessions = await ports.recallSessions(query, limit);
      if (sessions.length === 0) return 'No earlier session on a similar topic.';
      return sessions
        .map((session) => `- ${session.topic} (session ${session.sessionId}, similarity ${session.similarity.toFixed(2)}): ${session.summary}`)
        .join('\n');
    },
  });
}
