/**
 * Discord benchmarks, on the wall clock, through a real discord.js client against the fake Discord and the whole
 * app against the fake OpenRouter:
 * - `discord_first_visible_ms`: from a person's message in an active thread to the first visible participant text
 *   (the streaming preview), with each participant answer taking about 400 ms and its first token after 100 ms.
 *   Target: <= 1.3 x 100 ms + 150 ms = 280 ms.
 * - `discord_edits_per_second_max`: the most edits any one message received within one second while long
 *   answers streamed, the final edit that turns the preview into the answer included. Target: <= 1.
 * - `discord_burst_stored_ms`: three people post six messages in one thread at once (a burst); milliseconds from the
 *   first until the last is stored. A room's messages are taken in one after another, in the order they came (a later
 *   one never overtakes an earlier one), so this is what that order costs a busy room.
 */
import { createApp, type App } from '../src/app.ts';
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../src/bot/discord-bot.ts';
import { APPROVE_BUTTON_ID } from '../src/bot/message-format.ts';
import { buildConfig } from '../src/config/load-config.ts';
import { createLogger } from '../src/logging/logger.ts';
import { systemClock } from '../src/core/clock.ts';
import { startFakeDiscord, type FakeDiscord, type RecordedMessage } from '../tests/fakes/discord/index.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../tests/fakes/openrouter/fake-openrouter.ts';

/** One measured figure. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const PARTICIPANTS = ['Claude', 'ChatGPT', 'Grok'];
const SAMPLES = 5;
/** Streamed at 40 tokens/s after 100 ms: about a dozen tokens make a ~400 ms answer. */
const SHORT_ANSWER = 'Start with one kill switch per risky feature, then review flags monthly.';
const LONG_ANSWER = Array.from({ length: 12 }, (_, index) => `Step ${index + 1}: ship behind a flag, watch the metrics, widen the cohort.`).join(' ');

/** Runs both Discord measurements once and tears everything down. */
export async function runDiscordBench(): Promise<BenchResult[]> {
  const discord = await startFakeDiscord();
  const models = await startFakeOpenRouter({ latencyMs: 0, firstTokenMs: 100, tokensPerSecond: 40 });
  const logger = createLogger({ level: 'silent', secrets: [] });
  const config = buildConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    OPENROUTER_API_KEY: 'bench-openrouter-key',
    OPENROUTER_BASE_URL: models.url,
    MAX_AI_ROUNDS_WITHOUT_HUMAN: '1',
    DISCORD_BOT_TOKEN: discord.token,
    DISCORD_GUILD_ID: discord.guildId,
    DISCORD_CHANNEL_ID: discord.channels['brainstorm']!.id,
    DISCORD_API_URL: discord.apiUrl,
  });
  const connection = createDiscordConnection({ config, clock: systemClock, logger });
  const app = await createApp({ config, logger, database: 'memory', transports: [connection.transport], workerPollMs: 10 });
  const bot = createDiscordBot({ config, gateway: app.gateway, connection, clock: systemClock, logger });
  try {
    await app.start();
    await bot.start();
    const roomId = await activeSession(discord, bot, app);
    const firstVisible: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) firstVisible.push(await measureFirstVisible(discord, models, app, roomId, SHORT_ANSWER));
    const editsPerSecond = await measureEdits(discord, models, app, roomId);
    const burst: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) burst.push(await measureBurst(discord, models, app, roomId, sample));
    return [
      { name: 'discord_first_visible_ms', value: median(firstVisible), unit: 'ms' },
      { name: 'discord_edits_per_second_max', value: editsPerSecond, unit: 'edits/s' },
      { name: 'discord_burst_stored_ms', value: median(burst), unit: 'ms' },
    ];
  } finally {
    await bot.stop();
    await app.stop();
    await models.close();
    await discord.close();
  }
}

/** Topic -> questions -> answer -> plan -> approve: returns the thread of an active session. */
async function activeSession(discord: FakeDiscord, bot: DiscordBot, app: App): Promise<string> {
  const topic = discord.post(discord.channels['brainstorm']!.id, discord.people.ada, 'How should a small team adopt feature flags?');
  const roomId = await discord.waitFor(() => topic.threadId, { timeoutMs: 30_000, description: 'the session thread' });
  await discord.waitFor(() => personas(discord, roomId).length >= 1, { timeoutMs: 30_000, description: "the Planner's questions" });
  discord.post(roomId, discord.people.ada, 'We are 5 engineers shipping a SaaS; we want safer releases.');
  const plan = await discord.waitFor(() => personas(discord, roomId).find((message) => message.components.length > 0), {
    timeoutMs: 30_000,
    description: 'the plan',
  });
  const click = discord.clickButton(plan, APPROVE_BUTTON_ID, discord.people.ada);
  await bot.handled(click.id);
  await quiet(app);
  return roomId;
}

/** One sample: a person speaks; milliseconds until the first participant text is visible in the thread. */
async function measureFirstVisible(discord: FakeDiscord, models: FakeOpenRouter, app: App, roomId: string, answer: string): Promise<number> {
  for (const name of PARTICIPANTS) models.script({ participant: name }, { kind: 'text', text: answer });
  const said = discord.post(roomId, discord.people.bob, 'What is the cheapest first step?');
  const first = await discord.waitFor(() => participantMessagesAfter(discord, roomId, said)[0], { timeoutMs: 30_000, description: 'a participant answer' });
  await quiet(app);
  return first.createdAtMs - said.createdAtMs;
}

/** Long answers stream for seconds; returns the most edits (the final one included) one message got within one second. */
async function measureEdits(discord: FakeDiscord, models: FakeOpenRouter, app: App, roomId: string): Promise<number> {
  for (const name of PARTICIPANTS) models.script({ participant: name }, { kind: 'text', text: LONG_ANSWER });
  const said = discord.post(roomId, discord.people.bob, 'Walk us through a full rollout, step by step.');
  await discord.waitFor(() => participantMessagesAfter(discord, roomId, said).length >= 1, { timeoutMs: 30_000, description: 'long answers' });
  await quiet(app);
  let most = 0;
  for (const message of participantMessagesAfter(discord, roomId, said)) {
    const edits = message.editTimes;
    for (const [index, start] of edits.entries()) most = Math.max(most, edits.slice(index).filter((time) => time < start + 1000).length);
  }
  return most;
}

/** Six messages from three people at once; milliseconds from the first post until all six are stored, in order. */
async function measureBurst(discord: FakeDiscord, models: FakeOpenRouter, app: App, roomId: string, sample: number): Promise<number> {
  for (const name of PARTICIPANTS) models.script({ participant: name }, { kind: 'text', text: SHORT_ANSWER });
  const session = await app.repositories.sessions.findByRoom('discord', roomId);
  if (!session) throw new Error('discord bench: the session of the thread is gone');
  const people = [discord.people.ada, discord.people.bob, discord.people.fay];
  const texts = Array.from({ length: 6 }, (_, index) => `Burst ${sample}.${index}: one more thought on flags.`);
  const posted = texts.map((text, index) => discord.post(roomId, people[index % people.length]!, text));
  const storedTexts = async () =>
    (await app.repositories.messages.listRecent(session.id, 60)).map((message) => message.text).filter((text) => texts.includes(text));
  const deadline = Date.now() + 30_000;
  while ((await storedTexts()).length < texts.length) {
    if (Date.now() > deadline) throw new Error('discord bench: the burst was never stored');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const stored = Date.now();
  if ((await storedTexts()).join('\n') !== texts.join('\n')) throw new Error('discord bench: the burst was stored out of order');
  await quiet(app);
  return stored - posted[0]!.createdAtMs;
}

function personas(discord: FakeDiscord, roomId: string): RecordedMessage[] {
  return discord.messagesIn(roomId).filter((message) => message.origin === 'webhook');
}

function participantMessagesAfter(discord: FakeDiscord, roomId: string, after: RecordedMessage): RecordedMessage[] {
  return personas(discord, roomId).filter((message) => message.order > after.order && PARTICIPANTS.includes(message.displayName));
}

/** Waits until no session is busy and no job is due (polled: this is a bench on the wall clock). */
async function quiet(app: App): Promise<void> {
  const deadline = Date.now() + 60_000;
  let calm = 0;
  while (Date.now() < deadline) {
    const busy = app.services.coordinator.busySessions().length > 0;
    calm = busy ? 0 : calm + 1;
    if (calm >= 20) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('discord bench: the app never went quiet');
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
