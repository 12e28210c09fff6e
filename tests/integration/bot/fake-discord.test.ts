/** The fake Discord answers like Discord: error shapes and codes, limits, rate-limit headers, 429s, intents. */
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.ts';

let fake: FakeDiscord;

beforeAll(async () => {
  fake = await startFakeDiscord({ rateLimit: { limit: 3, windowMs: 60_000 }, heartbeatIntervalMs: 25 });
});
afterAll(async () => {
  await fake?.close();
});

function call(method: string, path: string, body?: unknown, auth = true): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  return callOn(fake, method, path, body, auth);
}

async function callOn(
  target: FakeDiscord,
  method: string,
  path: string,
  body?: unknown,
  auth = true,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${target.apiUrl}/v10${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bot ${target.token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
}

describe('fake Discord REST', () => {
  it("answers with Discord's error shapes and codes", async () => {
    const channel = fake.channels['general']!.id;
    expect(await call('POST', `/channels/${channel}/messages`, { content: 'x' }, false)).toMatchObject({ status: 401, body: { code: 0 } });
    const tooLong = await call('POST', `/channels/${channel}/messages`, { content: 'x'.repeat(2001) });
    expect(tooLong).toMatchObject({
      status: 400,
      body: { code: 50035, message: 'Invalid Form Body', errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } },
    });
    expect(await call('POST', `/channels/${channel}/messages`, { content: '' })).toMatchObject({ status: 400, body: { code: 50006 } });
    expect(await call('GET', '/channels/123/messages/456')).toMatchObject({ status: 404, body: { code: 10003, message: 'Unknown Channel' } });
    expect(await call('GET', `/channels/${channel}/messages/456`)).toMatchObject({ status: 404, body: { code: 10008 } });
  });

  it('takes uploads as Discord does: files[n] parts on the CDN, at most 10 a message, 413 past 10 MiB', async () => {
    // A fake of its own: the shared one allows three requests a minute.
    const own = await startFakeDiscord({});
    const channel = own.channels['general']!.id;
    const upload = async (files: { name: string; bytes: number }[]) => {
      const form = new FormData();
      form.append('payload_json', JSON.stringify({ content: '' }));
      files.forEach((file, index) => form.append(`files[${index}]`, new Blob([new Uint8Array(file.bytes).fill(97)], { type: 'text/markdown' }), file.name));
      const response = await fetch(`${own.apiUrl}/v10/channels/${channel}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${own.token}` },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const posted = await upload([{ name: 'notes.md', bytes: 5 }]);
    expect(posted.status).toBe(200);
    const [attachment] = posted.body.attachments as { filename: string; url: string; size: number }[];
    expect(attachment).toMatchObject({ filename: 'notes.md', size: 5 });
    const served = await fetch(`${own.cdnUrl}${new URL(attachment!.url).pathname}${new URL(attachment!.url).search}`);
    expect(await served.text()).toBe('aaaaa');
    const eleven = Array.from({ length: 11 }, (_, index) => ({ name: `f${index}.md`, bytes: 1 }));
    expect(await upload(eleven)).toMatchObject({ status: 400, body: { code: 50035, errors: { files: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } });
    expect(await upload([{ name: 'huge.md', bytes: 10 * 1024 * 1024 + 1 }])).toMatchObject({ status: 413, body: { code: 40005 } });
    await own.close();
  });

  it('enforces webhook names, thread_id parents, and 10015 after a webhook is deleted', async () => {
    const channel = fake.channels['brainstorm']!.id;
    expect(await call('POST', `/channels/${channel}/webhooks`, { name: 'Clyde' })).toMatchObject({ status: 400, body: { code: 50035 } });
    const created = await call('POST', `/channels/${channel}/webhooks`, { name: 'Brainstorm' });
    const { id, token } = created.body as { id: string; token: string };
    expect(await call('POST', `/webhooks/${id}/${token}?wait=true`, { content: 'hi', username: 'My Discord Bot' }, false)).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { username: { _errors: [{ code: 'USERNAME_INVALID_CONTAINS' }] } } },
    });
    expect(await call('POST', `/webhooks/${id}/${token}?wait=true&thread_id=${fake.channels['general']!.id}`, { content: 'hi' }, false)).toMatchObject({
      status: 404,
      body: { code: 10003 },
    });
    fake.deleteWebhook(id);
    expect(await call('POST', `/webhooks/${id}/${token}?wait=true`, { content: 'hi' }, false)).toMatchObject({
      status: 404,
      body: { code: 10015, message: 'Unknown Webhook' },
    });
  });

  it('sends rate-limit headers, then a real 429 when the bucket is empty, and injected 429s on demand', async () => {
    const fresh = fake.state.addTextChannel('limits').id;
    const first = await call('POST', `/channels/${fresh}/typing`);
    expect(first.status).toBe(204);
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{16}$/);
    await call('POST', `/channels/${fresh}/typing`);
    await call('POST', `/channels/${fresh}/typing`);
    const limited = await call('POST', `/channels/${fresh}/typing`);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(Number(limited.body['retry_after'])).toBeGreaterThan(0);
    expect(limited.headers.get('retry-after')).toBe(String(limited.body['retry_after']));
    fake.injectRateLimit({ route: 'channel.get', count: 1, retryAfterSeconds: 0.25, global: true });
    const injected = await call('GET', `/channels/${fresh}`);
    expect(injected).toMatchObject({ status: 429, body: { retry_after: 0.25, global: true } });
    expect(injected.headers.get('x-ratelimit-global')).toBe('true');
    expect((await call('GET', `/channels/${fresh}`)).status).toBe(200);
  });
});

describe('fake Discord: messages a webhook posted', () => {
  it('refuse the bot token (50005 to edit, 50013 to delete) and obey the webhook, with thread_id', async () => {
    const channel = fake.state.addTextChannel('webhook-edits').id;
    const starter = fake.post(channel, fake.people.ada, 'Topic');
    const thread = (await call('POST', `/channels/${channel}/messages/${starter.id}/threads`, { name: 'Topic' })).body as { id: string };
    const { id, token } = (await call('POST', `/channels/${channel}/webhooks`, { name: 'Brainstorm' })).body as { id: string; token: string };
    const posted = (await call('POST', `/webhooks/${id}/${token}?wait=true&thread_id=${thread.id}`, { content: 'preview', username: 'Claude' }, false))
      .body as { id: string };
    expect(await call('PATCH', `/channels/${thread.id}/messages/${posted.id}`, { content: 'x' })).toMatchObject({
      status: 403,
      body: { code: 50005, message: 'Cannot edit a message authored by another user' },
    });
    expect(await call('DELETE', `/channels/${thread.id}/messages/${posted.id}`)).toMatchObject({ status: 403, body: { code: 50013 } });
    expect(await call('PATCH', `/webhooks/${id}/${token}/messages/${posted.id}`, { content: 'x' }, false)).toMatchObject({
      status: 404,
      body: { code: 10008 },
    });
    expect(await call('PATCH', `/webhooks/${id}/${token}/messages/${posted.id}?thread_id=${thread.id}`, { content: 'final' }, false)).toMatchObject({
      status: 200,
      body: { content: 'final' },
    });
    expect((await call('DELETE', `/webhooks/${id}/${token}/messages/${posted.id}?thread_id=${thread.id}`, undefined, false)).status).toBe(204);
    expect(fake.state.findMessage(posted.id)?.deleted).toBe(true);
  });
});

describe('fake Discord: archived, locked and deleted threads', () => {
  // Its own fake, with Discord's default rate limits (this file's shared one allows three requests a minute).
  let fake: FakeDiscord;
  const call = (method: string, path: string, body?: unknown) => callOn(fake, method, path, body);
  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(async () => fake?.close());

  it('refuse edits while archived, wake on a message, refuse posts once locked, and answer 10003 once deleted', async () => {
    const channel = fake.state.addTextChannel('thread-states').id;
    const starter = fake.post(channel, fake.people.ada, 'Topic');
    const thread = (await call('POST', `/channels/${channel}/messages/${starter.id}/threads`, { name: 'Topic' })).body as { id: string };
    const posted = (await call('POST', `/channels/${thread.id}/messages`, { content: 'first' })).body as { id: string };
    fake.archiveThread(thread.id);
    expect(await call('GET', `/channels/${thread.id}`)).toMatchObject({ status: 200, body: { thread_metadata: { archived: true, locked: false } } });
    expect(await call('PATCH', `/channels/${thread.id}/messages/${posted.id}`, { content: 'x' })).toMatchObject({
      status: 400,
      body: { code: 50083, message: 'Thread is archived' },
    });
    // Sending a message unarchives a thread that is not locked.
    expect((await call('POST', `/channels/${thread.id}/messages`, { content: 'awake' })).status).toBe(200);
    expect(fake.state.channels.get(thread.id)?.archived).toBe(false);
    fake.archiveThread(thread.id, { locked: true });
    expect(await call('POST', `/channels/${thread.id}/messages`, { content: 'x' })).toMatchObject({ status: 400, body: { code: 50083 } });
    expect(() => fake.post(thread.id, fake.people.bob, 'x')).toThrow(/archived/);
    // The owner holds Manage Threads: a moderator may still post in a locked thread.
    expect(fake.post(thread.id, fake.people.owner, 'closing note').content).toBe('closing note');
    fake.deleteChannel(thread.id);
    expect(await call('GET', `/channels/${thread.id}/messages`)).toMatchObject({ status: 404, body: { code: 10003, message: 'Unknown Channel' } });
  });
});

describe('fake Discord gateway', () => {
  it('acknowledges heartbeats and withholds content without the Message Content intent', async () => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages], rest: { api: fake.apiUrl } });
    try {
      const ready = once(client, Events.ClientReady);
      await client.login(fake.token);
      await ready;
      await fake.waitFor(() => fake.gateway.stats.heartbeats >= 2, { description: 'two heartbeats' });
      const received = once(client, Events.MessageCreate) as Promise<[Message]>;
      fake.post(fake.channels['general']!.id, fake.people.bob, 'secret words');
      const [message] = await received;
      expect(message.author.id).toBe(fake.people.bob.id);
      expect(message.content).toBe('');
    } finally {
      await client.destroy();
    }
  });
});
