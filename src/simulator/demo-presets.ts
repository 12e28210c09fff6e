import { messageText, type ChatCompletionRequest } from './chat-types.ts';

/** The presets a topic's words suggest, the first match winning. */
const PRESET_HINTS: [RegExp, string][] = [
  [/retro|post-?mortem|incident|went wrong|lessons/i, 'retrospective'],
  // Before the architecture words: pricing an API is a product question, not an ADR.
  [/\bpric(?:e|es|ed|ing)\b|monetis|monetiz|revenue|business model|go-to-market|subscription/i, 'product-ideas'],
  // Not "design" alone: a design team's critiques are no architecture decision.
  [
    /architect|(?:system|technical|software|api|schema) design|design doc|migrat|database|stack|\bapi\b|framework|infrastructure|monolith|micro-?services?|split (?:out|off)|refactor|codebase|tech(?:nical)? debt|postgres|mysql|sqlite|dynamo|mongo|redis|kafka|rabbitmq|kubernetes|serverless|graphql|terraform|\b(?:aws|gcp|azure|react|vue|svelte|angular)\b/i,
    'architecture-decision',
  ],
  [/research|\bwhy\b|evidence|hypothes|study|investigat/i, 'research-question'],
  [/product|feature|idea|users?\b|market/i, 'product-ideas'],
];

/** The preset the demo Planner follows: the one a person chose, else the listed one the topic's words suggest. */
export function presetOf(body: ChatCompletionRequest, topic: string): string | null {
  const texts = body.messages.filter((message) => message.role === 'user').map(messageText);
  const chosen = texts.map((text) => /chose the preset "([a-z0-9-]+)"/.exec(text)?.[1]).find(Boolean);
  if (chosen) return chosen;
  const listed = new Set(texts.flatMap((text) => [...text.matchAll(/^- ([a-z0-9-]+): /gm)].map((match) => match[1] ?? '')));
  return PRESET_HINTS.find(([pattern, name]) => listed.has(name) && pattern.test(topic))?.[1] ?? null;
}
