/**
 * Two processes without shards both receive every interaction, as Discord sends it to each gateway session. The first
 * to acknowledge it runs the command; the other leaves it without logging a failure (it logged an error with a stack
 * for every button press, found by `npm run chaos:discord`).
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../../src/bot/discord-bot.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.ts';
import { discordEnvironment, RecordingGateway } from './discord-harness.ts';

let fake: FakeDiscord | null = null;
const bots: DiscordBot[] = [];

afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
  await fake?.close();
  fake = null;
});

/** A bot of its own process: its gateway, and the levels of what it logged. */
function processBot(discord: FakeDiscord): { bot: DiscordBot; gateway: RecordingGateway; levels: number[] } {
  const levels: number[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) levels.push((JSON.parse(line) as { level: number }).level);
      done();
    },
  });
  const gateway = new RecordingGateway();
  const bot = createDiscordBot({
    config: buildConfig(discordEnvironment(discord)),
    gateway,
    clock: new ManualClock('2026-05-01T09:00:00Z'),
    logger: createLogger({ level: 'debug', secrets: [], destination, readable: false }),
  });
  bots.push(bot);
  return { bot, gateway, levels };
}

describe('an interaction that two processes receive', () => {
  it('is run once, by the process that acknowledged it first, and the other logs no failure', async () => {
    const discord = await startFakeDiscord();
    fake = discord;
    const [first, second] = [processBot(discord), processBot(discord)];
    await first.bot.start();
    await second.bot.start();
    const command = discord.runSlashCommand({
      channelId: discord.channels['brainstorm']!.id,
      user: discord.people.bob,
      command: 'brainstorm',
      subcommand: 'status',
    });
    await Promise.all([first.bot.handled(command.id), second.bot.handled(command.id)]);
    expect(first.gateway.commands.length + second.gateway.commands.length).toBe(1);
    expect(command.responses.map((response) => response.kind)).toEqual(['callback', 'edit_original']);
    expect([...first.levels, ...second.levels].filter((level) => level >= 40)).toEqual([]);
  });
});
