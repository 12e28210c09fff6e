/**
 * The fake's message history answers as Discord's does (pages newest first, `after` = the messages right after
 * the id, limits validated, nothing without Read Message History), and a new gateway session (IDENTIFY after a
 * restart) is told nothing said while no client was connected: only a RESUME replays.
 */
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, PermissionFlagsBits, type Message } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.ts';

let fake: FakeDiscord;

beforeAll(async () => {
  fake = await startFakeDiscord({ channelNames: ['history', 'quiet'] });
});
afterAll(async () => {
  await fake?.close();
});

async function list(channelId: string, query: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${fake.apiUrl}/v10/channels/${channelId}/messages?${query}`, { headers: { authorization: `Bot ${fake.token}` } });
  return { status: response.status, body: await response.json() };
}

const ids = (body: unknown): string[] => (body as { id: string }[]).map((message) => message.id);

describe('GET /channels/{id}/messages', () => {
  it('pages newest first; `after` holds the messages right after the id; `before` the ones right before', async () => {
    const channel = fake.channels['history']!.id;
    const posted = Array.from({ length: 5 }, (_, index) => fake.post(channel, fake.people.bob, `m${index}`).id);
    expect(ids((await list(channel, 'limit=2')).body)).toEqual([posted[4], posted[3]]);
    expect(ids((await list(channel, `after=${posted[0]}&limit=2`)).body)).toEqual([posted[2], posted[1]]);
    expect(ids((await list(channel, `before=${posted[4]}&limit=2`)).body)).toEqual([posted[3], posted[2]]);
    expect(ids((await list(channel, `after=${posted[4]}&limit=100`)).body)).toEqual([]);
    expect(ids((await list(channel, `after=${posted[1]}`)).body)).toEqual([posted[4], posted[3], posted[2]]);
  });

  it('validates the query as Discord does (50035 Invalid Form Body)', async () => {
    const channel = fake.channels['history']!.id;
    expect(await list(channel, 'limit=101')).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { limit: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } } },
    });
    expect(await list(channel, 'limit=0')).toMatchObject({ status: 400, body: { code: 50035, errors: { limit: { _errors: [{ code: 'NUMBER_TYPE_MIN' }] } } } });
    expect(await list(channel, 'after=abc')).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { after: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } } },
    });
    expect(await list('123', 'limit=1')).toMatchObject({ status: 404, body: { code: 10003 } });
  });

  it('returns no messages without Read Message History', async () => {
    const channel = fake.channels['quiet']!.id;
    fake.post(channel, fake.people.bob, 'hidden from a bot without history');
    fake.setBotPermission(PermissionFlagsBits.ReadMessageHistory, false);
    try {
      expect(await list(channel, 'limit=10')).toEqual({ status: 200, body: [] });
    } finally {
      fake.setBotPermission(PermissionFlagsBits.ReadMessageHistory, true);
    }
    expect(ids((await list(channel, 'limit=10')).body)).toHaveLength(1);
  });
});

describe('fake gateway sessions', () => {
  it('replays nothing to a new session: what was said while away is only in the history', async () => {
    const channel = fake.channels['history']!.id;
    const login = async (): Promise<Client> => {
      const client = new Client({
        intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
        rest: { api: fake.apiUrl },
      });
      const ready = once(client, Events.ClientReady);
      await client.login(fake.token);
      await ready;
      return client;
    };
    const first = await login();
    await first.destroy();
    const missed = fake.post(channel, fake.people.bob, 'said while the bot was down');
    const second = await login();
    try {
      const seen: string[] = [];
      second.on(Events.MessageCreate, (message: Message) => seen.push(message.content));
      const received = once(second, Events.MessageCreate);
      fake.post(channel, fake.people.bob, 'said after the restart');
      await received;
      expect(seen).toEqual(['said after the restart']);
      expect(ids((await list(channel, `after=${BigInt(missed.id) - 1n}&limit=1`)).body)).toEqual([missed.id]);
    } finally {
      await second.destroy();
    }
  });
});
