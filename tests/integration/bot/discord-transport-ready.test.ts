/**
 * A restart's leftover delivery before the bot has connected. `npm start` starts the job worker before the bot logs
 * in, so an answer the last process stored but never posted can be delivered first: it must wait for the gateway's
 * READY and then reach its thread, not fail for good as "not a text channel" (found by `npm run chaos:discord`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../../src/bot/discord-bot.ts';
import { DiscordTransportError } from '../../../src/bot/discord-errors.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.ts';
import { discordEnvironment, RecordingGateway } from './discord-harness.ts';

const claude: Speaker = { kind: 'participant', name: 'Claude', id: 'claude' };
let fake: FakeDiscord | null = null;
let bot: DiscordBot | null = null;

afterEach(async () => {
  await bot?.stop();
  await fake?.close();
  bot = null;
  fake = null;
});

/** A fake Discord with a session thread the last process opened, and a bot of a new process that has not logged in. */
async function restartedBot(clock: ManualClock): Promise<{ discord: FakeDiscord; bot: DiscordBot; threadId: string }> {
  const discord = await startFakeDiscord();
  const channel = discord.channels['brainstorm']!;
  const topic = discord.post(channel.id, discord.people.ada, 'How do we keep the pager quiet?');
  const thread = discord.state.createThread(channel, topic, 'How do we keep the pager quiet?', 1440, discord.bot.id);
  const created = createDiscordBot({
    config: buildConfig(discordEnvironment(discord)),
    gateway: new RecordingGateway(),
    clock,
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  fake = discord;
  bot = created;
  return { discord, bot: created, threadId: thread.id };
}

const progress = () => ({ previewExternalId: null, deliveredExternalIds: [], onChunkDelivered: async () => undefined });

describe('a delivery that comes before the bot connected', () => {
  it('waits for the gateway and reaches its thread once', async () => {
    const { discord, bot: restarted, threadId } = await restartedBot(new ManualClock());
    const delivering = restarted.transport.deliver(threadId, { speaker: claude, content: 'Start with the noisiest alert.', replyTo: [] }, progress());
    await restarted.start();
    const delivered = await delivering;
    expect(discord.messagesIn(threadId).map((message) => [message.id, message.content])).toEqual([
      [delivered.externalIds[0], 'Start with the noisiest alert.'],
    ]);
  });

  it('gives up for now, as Discord being unavailable, when the bot does not connect in time', async () => {
    const clock = new ManualClock();
    const { discord, bot: unconnected, threadId } = await restartedBot(clock);
    const delivering = unconnected.transport.deliver(threadId, { speaker: claude, content: 'Never posted.', replyTo: [] }, progress());
    const outcome = delivering.then(
      () => null,
      (error: unknown) => error,
    );
    while (clock.pendingSleepers === 0) await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(29_999);
    expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting');
    await clock.advance(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(DiscordTransportError);
    expect(error).toMatchObject({ code: 'service_unavailable', failure: 'unavailable', retryable: true });
    expect(discord.messagesIn(threadId)).toEqual([]);
  });
});
