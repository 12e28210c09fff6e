import type { EndpointDialect, ParticipantConfig } from './roster.ts';
import type { Environment } from './env-schema.ts';
import type { TokenPrice } from '../core/cost.ts';
import type { SessionPreset } from './presets.ts';

/** A model reached for one of the four roles (planner, moderator, scribe, tldr). */
export interface RoleModelConfig {
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  temperature: number;
  dialect: EndpointDialect;
  /** True when no key reaches its endpoint: the demo simulator answers for it. */
  simulated: boolean;
}

/** Session limits: the admin bounds and the defaults a plan starts from. */
export interface LimitsConfig {
  maxMessages: number;
  maxTokens: number;
  maxCostUsd: number;
  maxContextPercent: number;
  contextRefreshPercent: number;
  timeoutMinutes: number;
  maxAiResponsesPerTurn: number;
  batchWindowSeconds: number;
  maxAiRoundsWithoutHuman: number;
  maxHumanMessageChars: number;
  /** Counted messages per person per minute in a discussion; more (and bursts) are folded into one turn. */
  humanMessagesPerMinute: number;
}

/** The whole configuration, built once in the composition root and passed down. */
export interface AppConfig {
  environment: Environment;
  runtime: { nodeEnv: Environment['NODE_ENV']; logLevel: Environment['LOG_LEVEL']; dataDir: string; databaseUrl: string | undefined };
  web: { host: string; port: number; token: string | undefined };
  discord: {
    token: string | undefined;
    guildId: string | undefined;
    channelIds: string[];
    apiUrl: string;
    /** Where attachments are read from (Discord's CDN; tests: the fake Discord). */
    cdnUrl: string;
    adminRoleId: string | undefined;
    commandRateLimitPerMinute: number;
  };
  models: {
    baseUrl: string;
    apiKey: string | undefined;
    /** Every participant and role is simulated (no key at all). */
    demoMode: boolean;
    /** At least one participant or role is simulated: the simulator runs and those messages say so. */
    anySimulated: boolean;
    /** How fast simulated participants write: `readable` for people, `fast` for tests. */
    demoPace: 'readable' | 'fast';
    roster: ParticipantConfig[];
    roles: { planner: RoleModelConfig; moderator: RoleModelConfig; scribe: RoleModelConfig; tldr: RoleModelConfig };
    embeddingModel: string;
    requestTimeoutMs: number;
    /** The admin's prices (`MODEL_PRICES`), USD per token by model id. */
    prices: Record<string, TokenPrice>;
    /** Each endpoint's own pace (0: none); roster entries may lower it for their endpoint. */
    rateLimits: { requestsPerMinute: number; tokensPerMinute: number };
  };
  notion: {
    apiKey: string | undefined;
    baseUrl: string;
    databaseId: string | undefined;
    parentPageId: string | undefined;
    requestsPerSecond: number;
    /** How long document writes keep retrying through an outage. */
    retryWindowHours: number;
  };
  limits: LimitsConfig;
  scribe: { intervalSeconds: number };
  tldr: { intervalSeconds: number };
  /** The one reminder of a session's open next steps, days after it ended (0: none). */
  followUp: { reminderDays: number };
  planner: { timeoutMinutes: number; maxQuestions: number; autoStart: boolean };
  /** The session presets (built-in and PRESETS_FILE). */
  presets: SessionPreset[];
  /** How much of a conversation a session started inside it reads (0 messages: none). */
  startContext: { maxMessages: number; maxChars: number };
  moderator: {
    checkInterval: number;
    driftThreshold: number;
    maxDriftWarnings: number;
    balanceCheck: boolean;
    qualityAssessment: boolean;
  };
  notifications: { ntfyUrl: string | undefined };
  telemetry: { otlpEndpoint: string | undefined; otlpHeaders: Record<string, string> };
  /** Human-readable lines saying which local defaults were chosen, logged at start-up. */
  defaultsChosen: string[];
}
