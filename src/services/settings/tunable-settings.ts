import type { AppConfig } from '../../config/app-config.ts';
import type { Environment } from '../../config/env-schema.ts';

/** Environment keys an admin may change at run time with `!config`: limits, intervals, moderator knobs. */
export const TUNABLE_SETTING_KEYS = [
  'MAX_MESSAGES_PER_CONVERSATION',
  'MAX_TOKENS_PER_CONVERSATION',
  'MAX_COST_PER_CONVERSATION_USD',
  'MAX_CONTEXT_WINDOW_PERCENT',
  'CONTEXT_REFRESH_THRESHOLD',
  'CONVERSATION_TIMEOUT_MINUTES',
  'MAX_AI_RESPONSES_PER_TURN',
  'BATCH_REPLY_TIME_WINDOW_SECONDS',
  'MAX_AI_ROUNDS_WITHOUT_HUMAN',
  'MAX_HUMAN_MESSAGE_CHARS',
  'HUMAN_MESSAGES_PER_MINUTE',
  'COMMAND_RATE_LIMIT_PER_MINUTE',
  'SCRIBE_UPDATE_INTERVAL',
  'TLDR_UPDATE_INTERVAL',
  'SESSION_PLANNER_TIMEOUT_MINUTES',
  'SESSION_PLANNER_MAX_QUESTIONS',
  'SESSION_PLANNER_AUTO_START',
  'MODERATOR_CHECK_INTERVAL',
  'MODERATOR_TOPIC_DRIFT_THRESHOLD',
  'MODERATOR_MAX_DRIFT_WARNINGS',
  'MODERATOR_PARTICIPANT_BALANCE_CHECK',
  'MODERATOR_QUALITY_ASSESSMENT',
] as const satisfies readonly (keyof Environment)[];

/** A key `!config` accepts. */
export type TunableSettingKey = (typeof TUNABLE_SETTING_KEYS)[number];

/** The value type of a tunable key. */
export type TunableValue = Environment[TunableSettingKey];

/** True when `key` is on the allow-list. */
export function isTunableKey(key: string): key is TunableSettingKey {
  return (TUNABLE_SETTING_KEYS as readonly string[]).includes(key);
}

/** A setting's name as typed, in the form of the keys: `maxMessages`, `max-messages` and `max messages` read `MAX_MESSAGES`. */
export function settingKeyOf(typed: string): string {
  return typed
    .trim()
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1_$2')
    .toUpperCase()
    .replace(/[\s.-]+/g, '_');
}

/**
 * The settings a name the list lacks may mean: those holding each of its words at the start of one of theirs
 * (`MAX_MESSAGES`, the plan's `maxMessages`, is `MAX_MESSAGES_PER_CONVERSATION`); at most three, else none.
 */
export function settingsMeant(key: string): TunableSettingKey[] {
  const words = key.split('_').filter(Boolean);
  if (words.length === 0) return [];
  const meant = TUNABLE_SETTING_KEYS.filter((candidate) => {
    const theirs = candidate.split('_');
    return words.every((word) => theirs.some((their) => their.startsWith(word)));
  });
  return meant.length <= 3 ? meant : [];
}

type Applier = (config: AppConfig, value: never) => AppConfig;

function limits<K extends keyof AppConfig['limits']>(field: K): Applier {
  return (config, value: AppConfig['limits'][K]) => ({ ...config, limits: { ...config.limits, [field]: value } });
}

function moderator<K extends keyof AppConfig['moderator']>(field: K): Applier {
  return (config, value: AppConfig['moderator'][K]) => ({ ...config, moderator: { ...config.moderator, [field]: value } });
}

function planner<K extends keyof AppConfig['planner']>(field: K): Applier {
  return (config, value: AppConfig['planner'][K]) => ({ ...config, planner: { ...config.planner, [field]: value } });
}

/** Where each tunable key lands in the AppConfig (mirrors `buildConfig`). */
export const CONFIG_APPLIERS: Record<TunableSettingKey, Applier> = {
  MAX_MESSAGES_PER_CONVERSATION: limits('maxMessages'),
  MAX_TOKENS_PER_CONVERSATION: limits('maxTokens'),
  MAX_COST_PER_CONVERSATION_USD: limits('maxCostUsd'),
  MAX_CONTEXT_WINDOW_PERCENT: limits('maxContextPercent'),
  CONTEXT_REFRESH_THRESHOLD: limits('contextRefreshPercent'),
  CONVERSATION_TIMEOUT_MINUTES: limits('timeoutMinutes'),
  MAX_AI_RESPONSES_PER_TURN: limits('maxAiResponsesPerTurn'),
  BATCH_REPLY_TIME_WINDOW_SECONDS: limits('batchWindowSeconds'),
  MAX_AI_ROUNDS_WITHOUT_HUMAN: limits('maxAiRoundsWithoutHuman'),
  MAX_HUMAN_MESSAGE_CHARS: limits('maxHumanMessageChars'),
  HUMAN_MESSAGES_PER_MINUTE: limits('humanMessagesPerMinute'),
  COMMAND_RATE_LIMIT_PER_MINUTE: (config, value: number) => ({ ...config, discord: { ...config.discord, commandRateLimitPerMinute: value } }),
  SCRIBE_UPDATE_INTERVAL: (config, value: number) => ({ ...config, scribe: { intervalSeconds: value } }),
  TLDR_UPDATE_INTERVAL: (config, value: number) => ({ ...config, tldr: { intervalSeconds: value } }),
  SESSION_PLANNER_TIMEOUT_MINUTES: planner('timeoutMinutes'),
  SESSION_PLANNER_MAX_QUESTIONS: planner('maxQuestions'),
  SESSION_PLANNER_AUTO_START: planner('autoStart'),
  MODERATOR_CHECK_INTERVAL: moderator('checkInterval'),
  MODERATOR_TOPIC_DRIFT_THRESHOLD: moderator('driftThreshold'),
  MODERATOR_MAX_DRIFT_WARNINGS: moderator('maxDriftWarnings'),
  MODERATOR_PARTICIPANT_BALANCE_CHECK: moderator('balanceCheck'),
  MODERATOR_QUALITY_ASSESSMENT: moderator('qualityAssessment'),
};

const SECRET_OR_ENDPOINT = /(_KEY|_TOKEN|_URL|_ID|_HEADERS|_ENDPOINT)$/;

/** Why a key outside the allow-list needs a restart (shown when `!config` refuses it). */
export function restartReason(key: string): string {
  if (SECRET_OR_ENDPOINT.test(key)) return 'keys, tokens, ids and addresses are never changed from chat; set it in the environment and restart.';
  if (key.endsWith('_MODEL') || key === 'PARTICIPANTS_FILE') return 'models are built once at start-up; set it in the environment and restart.';
  return 'it is read once at start-up; set it in the environment and restart.';
}
