import { Client, GatewayIntentBits, Partials, Events, type TextChannel } from 'discord.js';
import { expect, it } from 'vitest';
import { startFakeDiscord } from '../../fakes/discord/index.ts';

it('probe', async () => {
  const fake = await startFakeDiscord();
  const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.GuildWebhooks], partials: [Partials.Channel], rest: { api: fake.apiUrl } });
  client.on(Events.Raw, (p: {t: string}) => console.log('RAW', p.t)); client.on(Events.Error, (e) => console.log('ERR', e));
  const ready = new Promise((r) => client.once(Events.ClientReady, r));
  await client.login(fake.token);
  await ready;
  const channel = (await client.channels.fetch(fake.channels['brainstorm']!.id)) as TextChannel;
  const seen: string[] = [];
  client.on(Events.MessageCreate, (m) => { console.log('MC', m.author.username, JSON.stringify(m.content)); seen.push(m.content); });
  const msg = await channel.send({ content: 'hello' });
  const thread = await msg.startThread({ name: 'topic', autoArchiveDuration: 1440 });
  const hook = await channel.createWebhook({ name: 'Brainstorm' });
  const sent = await hook.send({ content: 'as claude', username: 'Claude', avatarURL: 'https://x/y.png', threadId: thread.id, allowedMentions: { parse: [] } });
  await hook.editMessage(sent.id, { content: 'edited', threadId: thread.id });
  fake.post(fake.channels['brainstorm']!.id, fake.people.bob, 'I am bob');
  await new Promise((r) => setTimeout(r, 300));
  console.log(fake.messagesIn(thread.id), seen, client.guilds.cache.first()?.members.me?.permissions.toArray());
  expect(sent.content).toBe('as claude');
  await client.destroy();
  await fake.close();
});
