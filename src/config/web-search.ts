import type { ParticipantConfig } from './roster.ts';

/**
 * What start-up says about web search: one line per participant that asked for it on an endpoint other than
 * OpenRouter (only OpenRouter knows the `openrouter:web_search` server tool, so that participant runs without it).
 */
export function webSearchNotices(roster: readonly ParticipantConfig[]): string[] {
  return roster
    .filter((participant) => participant.webSearch?.status === 'unsupported')
    .map(
      (participant) =>
        `${participant.name} asks for web search, but its endpoint (${participant.baseUrl}) is not OpenRouter, the only one that knows ` +
        'the openrouter:web_search tool: it answers without web search.',
    );
}
