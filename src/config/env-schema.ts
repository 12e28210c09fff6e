import { z } from 'zod';

const integer = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(fallback);
const decimal = (fallback: number, min = 0, max = Number.MAX_VALUE) => z.coerce.number().min(min).max(max).default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));
const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value))
  .pipe(z.url().optional());

/** Every environment variable the bot reads, with its default. `.env.example` mirrors this list. */
export const environmentSchema = z.object({
  // Runtime
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText,
  WEB_HOST: z.string().min(1).default('127.0.0.1'),
  WEB_PORT: integer(7420, 0, 65535),
  WEB_TOKEN: optionalText,
  DEMO_PACE: z.enum(['readable', 'fast']).default('readable'),
  // Read by scripts/start.mjs before the app starts (V8's flags); listed here so a bad value stops start-up clearly.
  SMALL_HOST: z.enum(['auto', 'yes', 'no']).default('auto'),
  NTFY_URL: optionalUrl,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_HEADERS: optionalText,
  TRACE_RETENTION_DAYS: integer(30, 0, 36_500),

  // Discord
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_GUILD_ID: optionalText,
  DISCORD_CHANNEL_ID: optionalText,
  DISCORD_API_URL: z.url().default('https://discord.com/api'),
  DISCORD_CDN_URL: z.url().default('https://cdn.discordapp.com'),
  ADMIN_ROLE_ID: optionalText,
  COMMAND_RATE_LIMIT_PER_MINUTE: integer(10, 1, 600),

  // Models
  OPENROUTER_API_KEY: optionalText,
  OPENROUTER_BASE_URL: z.url().default('https://openrouter.ai/api/v1'),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  OPENAI_MODEL: z.string().min(1).default('openai/gpt-4o'),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: z.url().default('https://api.anthropic.com/v1'),
  ANTHROPIC_MODEL: z.string().min(1).default('anthropic/claude-sonnet-4'),
  GROK_API_KEY: optionalText,
  GROK_BASE_URL: z.url().default('https://api.x.ai/v1'),
  GROK_MODEL: z.string().min(1).default('x-ai/grok-3'),
  CURSOR_API_KEY: optionalText,
  CURSOR_MODEL: optionalText,
  CURSOR_BASE_URL: optionalUrl,
  PARTICIPANTS_FILE: optionalText,
  /** JSON prices by model id (USD per million tokens) for endpoints that send no cost; see README "Cost". */
  MODEL_PRICES: optionalText,
  /** A JSON array of session presets added to (or replacing) the built-in ones. */
  PRESETS_FILE: optionalText,
  EMBEDDING_MODEL: z.string().min(1).default('openai/text-embedding-3-small'),
  MODEL_REQUEST_TIMEOUT_SECONDS: integer(120, 5, 3600),
  /** Our own pace per model endpoint (0: none; the provider's rate-limit headers are honoured either way). */
  MODEL_REQUESTS_PER_MINUTE: integer(0, 0, 1_000_000),
  MODEL_TOKENS_PER_MINUTE: integer(0, 0, 1_000_000_000),
  /** A participant whose answer has not started after this long is dropped from the round with a notice. */
  PARTICIPANT_FIRST_TOKEN_TIMEOUT_SECONDS: integer(30, 1, 3600),
  /** A participant's whole answer is cut (kept as interrupted) after this long; the room goes on without it. */
  PARTICIPANT_ANSWER_TIMEOUT_SECONDS: integer(120, 5, 3600),

  // Notion
  NOTION_API_KEY: optionalText,
  NOTION_BASE_URL: z.url().default('https://api.notion.com'),
  NOTION_DATABASE_ID: optionalText,
  NOTION_PARENT_PAGE_ID: optionalText,
  NOTION_REQUESTS_PER_SECOND: decimal(3, 0.1, 100),
  /** How long a session's document writes keep retrying through a Notion outage before an admin notice. */
  NOTION_RETRY_WINDOW_HOURS: decimal(24, 0.1, 720),

  // Conversation limits
  MAX_MESSAGES_PER_CONVERSATION: integer(1000, 1),
  MAX_TOKENS_PER_CONVERSATION: integer(5_000_000, 1000),
  MAX_COST_PER_CONVERSATION_USD: decimal(5, 0),
  MAX_CONTEXT_WINDOW_PERCENT: integer(80, 10, 100),
  CONTEXT_REFRESH_THRESHOLD: integer(50, 5, 100),
  CONVERSATION_TIMEOUT_MINUTES: integer(60, 1, 24 * 60),
  MAX_AI_RESPONSES_PER_TURN: integer(3, 1, 20),
  BATCH_REPLY_TIME_WINDOW_SECONDS: integer(60, 0, 3600),
  MAX_AI_ROUNDS_WITHOUT_HUMAN: integer(6, 0, 1000),
  MAX_HUMAN_MESSAGE_CHARS: integer(8000, 100, 100_000),
  HUMAN_MESSAGES_PER_MINUTE: integer(10, 1, 600),
  CONTEXT_HISTORY_BUDGET_TOKENS: integer(4000, 1000, 1_000_000),

  // Scribe
  SCRIBE_UPDATE_INTERVAL: integer(60, 1),
  SCRIBE_MODEL: z.string().min(1).default('chatgpt'),

  // TLDR
  TLDR_UPDATE_INTERVAL: integer(600, 1),
  TLDR_MODEL: z.string().min(1).default('chatgpt'),
  /** Days after a session ends when its room is reminded of the next steps still open; 0: never. */
  NEXT_STEPS_REMINDER_DAYS: integer(7, 0, 90),

  // Session planner
  SESSION_PLANNER_MODEL: z.string().min(1).default('claude'),
  SESSION_PLANNER_TIMEOUT_MINUTES: integer(30, 1, 24 * 60),
  SESSION_PLANNER_MAX_QUESTIONS: integer(5, 0, 10),
  SESSION_PLANNER_AUTO_START: flag(false),
  /** A session started from a conversation reads at most this many of its last messages and characters. */
  START_CONTEXT_MESSAGES: integer(50, 0, 100),
  START_CONTEXT_CHARS: integer(12_000, 500, 100_000),

  // Session moderator
  MODERATOR_MODEL: z.string().min(1).default('claude'),
  MODERATOR_CHECK_INTERVAL: integer(10, 1),
  MODERATOR_TOPIC_DRIFT_THRESHOLD: decimal(0.6, 0, 1),
  MODERATOR_MAX_DRIFT_WARNINGS: integer(3, 1, 100),
  MODERATOR_PARTICIPANT_BALANCE_CHECK: flag(true),
  MODERATOR_QUALITY_ASSESSMENT: flag(true),

  // Idea ledger (a round is one ledger pass, one per Scribe interval with new messages)
  IDEAS_CONVERGENCE_ROUNDS: integer(3, 0, 100),
  IDEAS_DUPLICATE_SIMILARITY: decimal(0.85, 0, 1),
  IDEAS_AGREEMENT_THRESHOLD: decimal(0.9, 0, 1),
  IDEAS_ROLE_ROTATION_ROUNDS: integer(3, 0, 1000),

  // Scale-out: several processes on one Postgres (see README "Deployment")
  SESSION_LEASE_SECONDS: integer(15, 2, 600),
  SESSION_POLL_MS: integer(1000, 50, 600_000),
  SHARD_COUNT: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).max(10_000).optional()),
  SHARD_IDS: optionalText,
});

/** The parsed environment. */
export type Environment = z.infer<typeof environmentSchema>;
