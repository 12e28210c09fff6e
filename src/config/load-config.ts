import { config as loadDotenv } from 'dotenv';
import { ConfigError } from './config-error.ts';
import { environmentSchema, type Environment } from './env-schema.ts';
import type { AppConfig, RoleModelConfig } from './app-config.ts';
import { loadRoster, type ParticipantConfig } from './roster.ts';
import { parseModelPrices } from './model-prices.ts';
import { loadPresets } from './presets.ts';
import { describeValueIssue, quotedValue } from './value-issue.ts';

/** Parses an environment map; throws a ConfigError naming the first bad variable. */
export function parseEnvironment(source: Record<string, string | undefined>): Environment {
  const result = environmentSchema.safeParse(source);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const variable = String(issue?.path[0] ?? 'environment');
  const received = source[variable];
  throw new ConfigError(variable, `${describeValueIssue(issue)}${received === undefined ? '' : ` (got ${quotedValue(received)})`}`);
}

function resolveRoleModel(choice: string, roster: ParticipantConfig[], environment: Environment): RoleModelConfig {
  const participant = roster.find((entry) => entry.id === choice.toLowerCase() || entry.name.toLowerCase() === choice.toLowerCase());
  if (participant) return roleOnParticipant(participant);
  if (!choice.includes('/')) {
    throw new ConfigError(
      'model choice',
      `"${choice}" is neither a participant id (${roster.map((entry) => entry.id).join(', ')}) nor a model id like "openai/gpt-4o"`,
    );
  }
  const apiKey = environment.OPENROUTER_API_KEY;
  return { model: choice, baseUrl: environment.OPENROUTER_BASE_URL, apiKey, temperature: 0.3, dialect: 'openrouter', simulated: !apiKey };
}

function roleOnParticipant(participant: ParticipantConfig): RoleModelConfig {
  const { model, baseUrl, apiKey, dialect, simulated } = participant;
  return { model, baseUrl, apiKey, temperature: 0.3, dialect, simulated };
}

/**
 * A role whose chosen model would be simulated moves to the first real participant, so one direct key (say
 * ANTHROPIC_API_KEY alone) gives real Planner, Moderator, Scribe and TLDR runs, not canned ones.
 */
function resolveRole(variable: string, choice: string, roster: ParticipantConfig[], environment: Environment, notes: string[]): RoleModelConfig {
  let role: RoleModelConfig;
  try {
    role = resolveRoleModel(choice, roster, environment);
  } catch (error) {
    if (ConfigError.isConfigError(error)) throw new ConfigError(variable, error.message.replace(/^model choice: /, ''));
    throw error;
  }
  const real = roster.find((entry) => !entry.simulated);
  if (!role.simulated || !real) return role;
  notes.push(`${variable}: "${choice}" has no key, so ${real.name} (${real.model}) takes the role`);
  return roleOnParticipant(real);
}

function parseHeaders(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  return Object.fromEntries(
    raw.split(',').flatMap((pair) => {
      const index = pair.indexOf('=');
      return index > 0 ? [[pair.slice(0, index).trim(), pair.slice(index + 1).trim()]] : [];
    }),
  );
}

/** Builds the AppConfig from an environment map (process.env in production, a literal in tests). */
export function buildConfig(source: Record<string, string | undefined>): AppConfig {
  const environment = parseEnvironment(source);
  const roster = loadRoster(environment, source);
  const defaultsChosen: string[] = [];
  const roles = {
    planner: resolveRole('SESSION_PLANNER_MODEL', environment.SESSION_PLANNER_MODEL, roster, environment, defaultsChosen),
    moderator: resolveRole('MODERATOR_MODEL', environment.MODERATOR_MODEL, roster, environment, defaultsChosen),
    scribe: resolveRole('SCRIBE_MODEL', environment.SCRIBE_MODEL, roster, environment, defaultsChosen),
    tldr: resolveRole('TLDR_MODEL', environment.TLDR_MODEL, roster, environment, defaultsChosen),
  };
  const simulatedNames = roster.filter((entry) => entry.simulated).map((entry) => entry.name);
  const demoMode = simulatedNames.length === roster.length && Object.values(roles).every((role) => role.simulated);
  if (!environment.DATABASE_URL) defaultsChosen.push(`storage: embedded PGlite under ${environment.DATA_DIR}/db (set DATABASE_URL for a Postgres server)`);
  if (!environment.NOTION_API_KEY) defaultsChosen.push(`documents: local markdown mirror under ${environment.DATA_DIR}/docs (set NOTION_API_KEY for Notion)`);
  if (!environment.DISCORD_BOT_TOKEN) defaultsChosen.push('chat: the web console local channel (set DISCORD_BOT_TOKEN for Discord)');
  if (demoMode) defaultsChosen.push('models: SIMULATED demo models on loopback (set OPENROUTER_API_KEY for real models)');
  else if (simulatedNames.length > 0) defaultsChosen.push(`models: ${simulatedNames.join(', ')} SIMULATED (no key for their endpoint); the others are real`);

  return {
    environment,
    runtime: { nodeEnv: environment.NODE_ENV, logLevel: environment.LOG_LEVEL, dataDir: environment.DATA_DIR, databaseUrl: environment.DATABASE_URL },
    web: { host: environment.WEB_HOST, port: environment.WEB_PORT, token: environment.WEB_TOKEN },
    discord: {
      token: environment.DISCORD_BOT_TOKEN,
      guildId: environment.DISCORD_GUILD_ID,
      channelIds: (environment.DISCORD_CHANNEL_ID ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
      apiUrl: environment.DISCORD_API_URL,
      cdnUrl: environment.DISCORD_CDN_URL,
      adminRoleId: environment.ADMIN_ROLE_ID,
      commandRateLimitPerMinute: environment.COMMAND_RATE_LIMIT_PER_MINUTE,
    },
    models: {
      baseUrl: environment.OPENROUTER_BASE_URL,
      apiKey: environment.OPENROUTER_API_KEY,
      demoMode,
      anySimulated: simulatedNames.length > 0 || Object.values(roles).some((role) => role.simulated),
      demoPace: environment.DEMO_PACE,
      roster,
      roles,
      embeddingModel: environment.EMBEDDING_MODEL,
      requestTimeoutMs: environment.MODEL_REQUEST_TIMEOUT_SECONDS * 1000,
      prices: parseModelPrices(environment.MODEL_PRICES),
      rateLimits: { requestsPerMinute: environment.MODEL_REQUESTS_PER_MINUTE, tokensPerMinute: environment.MODEL_TOKENS_PER_MINUTE },
    },
    notion: {
      apiKey: environment.NOTION_API_KEY,
      baseUrl: environment.NOTION_BASE_URL,
      databaseId: environment.NOTION_DATABASE_ID,
      parentPageId: environment.NOTION_PARENT_PAGE_ID,
      requestsPerSecond: environment.NOTION_REQUESTS_PER_SECOND,
      retryWindowHours: environment.NOTION_RETRY_WINDOW_HOURS,
    },
    limits: {
      maxMessages: environment.MAX_MESSAGES_PER_CONVERSATION,
      maxTokens: environment.MAX_TOKENS_PER_CONVERSATION,
      maxCostUsd: environment.MAX_COST_PER_CONVERSATION_USD,
      maxContextPercent: environment.MAX_CONTEXT_WINDOW_PERCENT,
      contextRefreshPercent: environment.CONTEXT_REFRESH_THRESHOLD,
      timeoutMinutes: environment.CONVERSATION_TIMEOUT_MINUTES,
      maxAiResponsesPerTurn: environment.MAX_AI_RESPONSES_PER_TURN,
      batchWindowSeconds: environment.BATCH_REPLY_TIME_WINDOW_SECONDS,
      maxAiRoundsWithoutHuman: environment.MAX_AI_ROUNDS_WITHOUT_HUMAN,
      maxHumanMessageChars: environment.MAX_HUMAN_MESSAGE_CHARS,
      humanMessagesPerMinute: environment.HUMAN_MESSAGES_PER_MINUTE,
    },
    scribe: { intervalSeconds: environment.SCRIBE_UPDATE_INTERVAL },
    tldr: { intervalSeconds: environment.TLDR_UPDATE_INTERVAL },
    followUp: { reminderDays: environment.NEXT_STEPS_REMINDER_DAYS },
    planner: {
      timeoutMinutes: environment.SESSION_PLANNER_TIMEOUT_MINUTES,
      maxQuestions: environment.SESSION_PLANNER_MAX_QUESTIONS,
      autoStart: environment.SESSION_PLANNER_AUTO_START,
    },
    presets: loadPresets(environment.PRESETS_FILE),
    startContext: { maxMessages: environment.START_CONTEXT_MESSAGES, maxChars: environment.START_CONTEXT_CHARS },
    moderator: {
      checkInterval: environment.MODERATOR_CHECK_INTERVAL,
      driftThreshold: environment.MODERATOR_TOPIC_DRIFT_THRESHOLD,
      maxDriftWarnings: environment.MODERATOR_MAX_DRIFT_WARNINGS,
      balanceCheck: environment.MODERATOR_PARTICIPANT_BALANCE_CHECK,
      qualityAssessment: environment.MODERATOR_QUALITY_ASSESSMENT,
    },
    notifications: { ntfyUrl: environment.NTFY_URL },
    telemetry: { otlpEndpoint: environment.OTEL_EXPORTER_OTLP_ENDPOINT, otlpHeaders: parseHeaders(environment.OTEL_EXPORTER_OTLP_HEADERS) },
    defaultsChosen,
  };
}

/** Reads `.env` (if present) and process.env: the one place the process environment is read. */
export function loadConfigFromProcess(): AppConfig {
  loadDotenv({ quiet: true });
  return buildConfig(process.env);
}

/** The values a secret may take in this config, so the logger and tracer can redact them. */
export function collectSecrets(config: AppConfig): string[] {
  const values = [
    config.discord.token,
    config.models.apiKey,
    config.notion.apiKey,
    config.web.token,
    ...config.models.roster.map((entry) => entry.apiKey),
    ...Object.values(config.models.roles).map((role) => role.apiKey),
  ];
  return [...new Set(values.filter((value): value is string => typeof value === 'string' && value.length >= 8))];
}
