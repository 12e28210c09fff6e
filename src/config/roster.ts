import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Environment } from './env-schema.ts';
import { ConfigError } from './config-error.ts';

/** One roster entry as written in a participants file or built from the environment. */
export const participantEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a lowercase slug of letters, digits and dashes'),
  name: z.string().min(1).max(80),
  model: z.string().min(1),
  /** Absent: OpenRouter. Present without `apiKeyVariable`: an endpoint that needs no key (Ollama, LM Studio). */
  baseUrl: z.url().optional(),
  apiKeyVariable: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/)
    .optional(),
  persona: z.string().min(1).max(4000),
  avatarUrl: z.url().optional(),
  temperature: z.number().min(0).max(2).default(0.8),
  contextWindow: z.number().int().positive().optional(),
  /** Caps its endpoint's pace below MODEL_REQUESTS_PER_MINUTE / MODEL_TOKENS_PER_MINUTE (a small local server). */
  requestsPerMinute: z.number().int().positive().optional(),
  tokensPerMinute: z.number().int().positive().optional(),
  enabled: z.boolean().default(true),
  /** OpenRouter's `openrouter:web_search` server tool: `true`, or `{ "maxResults": n }` to cap the results per search. */
  webSearch: z.union([z.boolean(), z.object({ maxResults: z.number().int().min(1).max(25).optional() }).strict()]).default(false),
  /** Shows it the images people attach; absent: as its endpoint's `/models` lists the model (`input_modalities`). */
  images: z.boolean().optional(),
});

/**
 * A participant's web search: `on` sends OpenRouter's server tool; `unsupported` was asked for on an endpoint that
 * is not OpenRouter (a direct provider or a local model does not know the tool), so it runs without.
 */
export type WebSearchSetting = { status: 'on'; maxResults: number | undefined } | { status: 'unsupported' };

/** How an endpoint speaks: OpenRouter takes routing fields (`provider`), a plain OpenAI-compatible one rejects them. */
export type EndpointDialect = 'openrouter' | 'openai-compatible';

/** A participant, resolved: its endpoint and key are known. The key never leaves the model layer. */
export interface ParticipantConfig {
  id: string;
  name: string;
  model: string;
  baseUrl: string;
  apiKeyVariable: string | undefined;
  apiKey: string | undefined;
  dialect: EndpointDialect;
  /** True when its endpoint needs a key that is not set: the demo simulator answers for it, marked as such. */
  simulated: boolean;
  persona: string;
  avatarUrl: string | undefined;
  temperature: number;
  contextWindow: number | undefined;
  /** This entry's cap on its endpoint's pace; the lowest of all entries on an endpoint wins. */
  requestsPerMinute?: number | undefined;
  tokensPerMinute?: number | undefined;
  enabled: boolean;
  /** Absent: no web search. */
  webSearch?: WebSearchSetting;
  /** Whether its model sees images; absent: as the model listing says. */
  images?: boolean;
}

type ParticipantEntry = z.input<typeof participantEntrySchema>;

/** A default participant that can also be reached on its provider's own OpenAI-compatible endpoint. */
interface DefaultParticipant {
  id: string;
  name: string;
  keyVariable: 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY' | 'GROK_API_KEY';
  baseUrl: (environment: Environment) => string;
  model: (environment: Environment) => string;
  /** The OpenRouter id the model variable defaults to, and the provider's own id for that default. */
  openRouterDefault: string;
  directDefault: string;
  persona: string;
  avatarUrl: string;
  temperature: number;
  /** Whether the provider's own default model sees images (OpenRouter's listing says so for its ids). */
  directDefaultSeesImages: boolean;
}

// Discord's own default avatars: they load everywhere Discord does, unlike a made-up CDN.
const DEFAULT_PARTICIPANTS: DefaultParticipant[] = [
  {
    id: 'claude',
    name: 'Claude',
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrl: (environment) => environment.ANTHROPIC_BASE_URL,
    model: (environment) => environment.ANTHROPIC_MODEL,
    openRouterDefault: 'anthropic/claude-sonnet-4',
    directDefault: 'claude-sonnet-4-0',
    persona: 'Careful and structured. You look for the assumptions under an idea, name trade-offs plainly and build on what others said.',
    avatarUrl: 'https://cdn.discordapp.com/embed/avatars/1.png',
    temperature: 0.7,
    directDefaultSeesImages: true,
  },
  {
    id: 'chatgpt',
    name: 'ChatGPT',
    keyVariable: 'OPENAI_API_KEY',
    baseUrl: (environment) => environment.OPENAI_BASE_URL,
    model: (environment) => environment.OPENAI_MODEL,
    openRouterDefault: 'openai/gpt-4o',
    directDefault: 'gpt-4o',
    persona: 'Practical and generative. You propose concrete options, examples and next steps, and you are happy to be challenged.',
    avatarUrl: 'https://cdn.discordapp.com/embed/avatars/3.png',
    temperature: 0.8,
    directDefaultSeesImages: true,
  },
  {
    id: 'grok',
    name: 'Grok',
    keyVariable: 'GROK_API_KEY',
    baseUrl: (environment) => environment.GROK_BASE_URL,
    model: (environment) => environment.GROK_MODEL,
    openRouterDefault: 'x-ai/grok-3',
    directDefault: 'grok-3',
    persona: 'Contrarian and witty. You poke holes, ask the uncomfortable question and suggest the unconventional route, without being rude.',
    avatarUrl: 'https://cdn.discordapp.com/embed/avatars/4.png',
    temperature: 0.9,
    directDefaultSeesImages: false,
  },
];

/** The provider's own model id: the known default, else the OpenRouter id without its `vendor/` prefix. */
function directModelId(participant: DefaultParticipant, chosen: string): string {
  if (chosen === participant.openRouterDefault) return participant.directDefault;
  return chosen.includes('/') ? chosen.slice(chosen.indexOf('/') + 1) : chosen;
}

/** A default participant on its own provider when its key is set, else on OpenRouter. */
function defaultEntry(participant: DefaultParticipant, environment: Environment, secrets: Record<string, string | undefined>): ParticipantEntry {
  const common = {
    id: participant.id,
    name: participant.name,
    persona: participant.persona,
    avatarUrl: participant.avatarUrl,
    temperature: participant.temperature,
  };
  const chosen = participant.model(environment);
  if (secrets[participant.keyVariable]) {
    // A provider's own endpoint lists its models without modalities (or not at all): its default's are known here.
    const images = chosen === participant.openRouterDefault ? { images: participant.directDefaultSeesImages } : {};
    return {
      ...common,
      model: directModelId(participant, chosen),
      baseUrl: participant.baseUrl(environment),
      apiKeyVariable: participant.keyVariable,
      ...images,
    };
  }
  return { ...common, model: chosen };
}

function defaultEntries(environment: Environment, secrets: Record<string, string | undefined>): ParticipantEntry[] {
  const entries = DEFAULT_PARTICIPANTS.map((participant) => defaultEntry(participant, environment, secrets));
  if (environment.CURSOR_MODEL) {
    entries.push({
      id: 'cursor',
      name: 'Cursor',
      model: environment.CURSOR_MODEL,
      baseUrl: environment.CURSOR_BASE_URL,
      apiKeyVariable: 'CURSOR_API_KEY',
      persona: 'A hands-on engineer. You think in code, interfaces and migration steps.',
      avatarUrl: 'https://cdn.discordapp.com/embed/avatars/2.png',
      temperature: 0.5,
    });
  }
  return entries;
}

function readEntriesFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError('PARTICIPANTS_FILE', `cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Where an entry is reached, with which key variable, and whether that endpoint needs a key at all. */
function resolveEndpoint(entry: z.output<typeof participantEntrySchema>, environment: Environment) {
  if (!entry.baseUrl) {
    return { baseUrl: environment.OPENROUTER_BASE_URL, apiKeyVariable: entry.apiKeyVariable ?? 'OPENROUTER_API_KEY', needsKey: true };
  }
  return { baseUrl: entry.baseUrl, apiKeyVariable: entry.apiKeyVariable, needsKey: entry.apiKeyVariable !== undefined };
}

/** Whether a base URL is OpenRouter's (the configured one, which tests point at a fake, or the public host). */
export function dialectOf(baseUrl: string, environment: Environment): EndpointDialect {
  return baseUrl === environment.OPENROUTER_BASE_URL || new URL(baseUrl).hostname.endsWith('openrouter.ai') ? 'openrouter' : 'openai-compatible';
}

function webSearchOf(entry: z.output<typeof participantEntrySchema>, dialect: EndpointDialect): { webSearch?: WebSearchSetting } {
  if (entry.webSearch === false) return {};
  if (dialect !== 'openrouter') return { webSearch: { status: 'unsupported' } };
  return { webSearch: { status: 'on', maxResults: entry.webSearch === true ? undefined : entry.webSearch.maxResults } };
}

/** Builds the roster from `PARTICIPANTS_FILE` or the defaults, resolving endpoints and keys. */
export function loadRoster(environment: Environment, secrets: Record<string, string | undefined>): ParticipantConfig[] {
  const raw = environment.PARTICIPANTS_FILE ? readEntriesFile(environment.PARTICIPANTS_FILE) : defaultEntries(environment, secrets);
  const parsed = z.array(participantEntrySchema).min(1).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError('PARTICIPANTS_FILE', `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const seen = new Set<string>();
  return parsed.data.map((entry) => {
    if (seen.has(entry.id)) throw new ConfigError('PARTICIPANTS_FILE', `participant id "${entry.id}" appears twice`);
    seen.add(entry.id);
    const endpoint = resolveEndpoint(entry, environment);
    const apiKey = endpoint.apiKeyVariable ? secrets[endpoint.apiKeyVariable] : undefined;
    const dialect = dialectOf(endpoint.baseUrl, environment);
    return {
      id: entry.id,
      name: entry.name,
      model: entry.model,
      baseUrl: endpoint.baseUrl,
      apiKeyVariable: endpoint.apiKeyVariable,
      apiKey,
      dialect,
      simulated: endpoint.needsKey && !apiKey,
      persona: entry.persona,
      avatarUrl: entry.avatarUrl,
      temperature: entry.temperature,
      contextWindow: entry.contextWindow,
      requestsPerMinute: entry.requestsPerMinute,
      tokensPerMinute: entry.tokensPerMinute,
      enabled: entry.enabled,
      ...webSearchOf(entry, dialect),
      ...(entry.images === undefined ? {} : { images: entry.images }),
    };
  });
}
