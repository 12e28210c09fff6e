import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Environment } from './env-schema.ts';
import { ConfigError } from './config-error.ts';

/** One roster entry as written in a participants file or built from the environment. */
export const participantEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a lowercase slug of letters, digits and dashes'),
  name: z.string().min(1).max(80),
  model: z.string().min(1),
  baseUrl: z.url().optional(),
  apiKeyVariable: z.string().regex(/^[A-Z][A-Z0-9_]*$/).default('OPENROUTER_API_KEY'),
  persona: z.string().min(1).max(4000),
  avatarUrl: z.url().optional(),
  temperature: z.number().min(0).max(2).default(0.8),
  contextWindow: z.number().int().positive().optional(),
  enabled: z.boolean().default(true),
});

/** A participant, resolved: its endpoint and key are known. The key never leaves the model layer. */
export interface ParticipantConfig {
  id: string;
  name: string;
  model: string;
  baseUrl: string;
  apiKeyVariable: string;
  apiKey: string | undefined;
  persona: string;
  avatarUrl: string | undefined;
  temperature: number;
  contextWindow: number | undefined;
  enabled: boolean;
}

type ParticipantEntry = z.input<typeof participantEntrySchema>;

function defaultEntries(environment: Environment): ParticipantEntry[] {
  const entries: ParticipantEntry[] = [
    {
      id: 'claude',
      name: 'Claude',
      model: environment.ANTHROPIC_MODEL,
      persona:
        'Careful and structured. You look for the assumptions under an idea, name trade-offs plainly and build on what others said.',
      avatarUrl: 'https://cdn.brainstorm.invalid/avatars/claude.png',
      temperature: 0.7,
    },
    {
      id: 'chatgpt',
      name: 'ChatGPT',
      model: environment.OPENAI_MODEL,
      persona:
        'Practical and generative. You propose concrete options, examples and next steps, and you are happy to be challenged.',
      avatarUrl: 'https://cdn.brainstorm.invalid/avatars/chatgpt.png',
      temperature: 0.8,
    },
    {
      id: 'grok',
      name: 'Grok',
      model: environment.GROK_MODEL,
      persona:
        'Contrarian and witty. You poke holes, ask the uncomfortable question and suggest the unconventional route, without being rude.',
      avatarUrl: 'https://cdn.brainstorm.invalid/avatars/grok.png',
      temperature: 0.9,
    },
  ];
  if (environment.CURSOR_MODEL) {
    entries.push({
      id: 'cursor',
      name: 'Cursor',
      model: environment.CURSOR_MODEL,
      baseUrl: environment.CURSOR_BASE_URL,
      apiKeyVariable: 'CURSOR_API_KEY',
      persona: 'A hands-on engineer. You think in code, interfaces and migration steps.',
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

/** Builds the roster from `PARTICIPANTS_FILE` or the defaults, resolving endpoints and keys. */
export function loadRoster(environment: Environment, secrets: Record<string, string | undefined>): ParticipantConfig[] {
  const raw = environment.PARTICIPANTS_FILE ? readEntriesFile(environment.PARTICIPANTS_FILE) : defaultEntries(environment);
  const parsed = z.array(participantEntrySchema).min(1).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError('PARTICIPANTS_FILE', `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const seen = new Set<string>();
  return parsed.data.map((entry) => {
    if (seen.has(entry.id)) throw new ConfigError('PARTICIPANTS_FILE', `participant id "${entry.id}" appears twice`);
    seen.add(entry.id);
    return {
      id: entry.id,
      name: entry.name,
      model: entry.model,
      baseUrl: entry.baseUrl ?? environment.OPENROUTER_BASE_URL,
      apiKeyVariable: entry.apiKeyVariable,
      apiKey: secrets[entry.apiKeyVariable],
      persona: entry.persona,
      avatarUrl: entry.avatarUrl,
      temperature: entry.temperature,
      contextWindow: entry.contextWindow,
      enabled: entry.enabled,
    };
  });
}
