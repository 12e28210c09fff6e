/** The fake Discord for tests and benches. */
export { startFakeDiscord, DEFAULT_BOT_PERMISSIONS, type FakeDiscord, type FakeDiscordOptions } from './fake-discord.ts';
export type { FakeChannel, FakeInteraction, FakeUser, FakeWebhook, RecordedMessage, MentionOutcome } from './fake-model.ts';
export type { RateLimitInjection } from './rate-limits.ts';
