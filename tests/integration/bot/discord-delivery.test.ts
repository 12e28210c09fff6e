/** Delivery that Discord never refuses and that reads well: withheld previews, reply lines, edit pacing, room order. */
import { GatewayDispatchEvents } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordTransport } from '../../../src/bot/discord-transport.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import type { DeliveryProgress, OutgoingMessage, ReplyReference } from '../../../src/core/ports.ts';
import { StreamDraft } from '../../../src/services/delivery/stream-draft.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.ts';

const claude: Speaker = { kind: 'participant', name: 'Claude', id: 'claude' };
const grok: Speaker = { kind: 'participant', name: 'Grok', id: 'grok' };
const system: Speaker = { kind: 'system', name: 'Brainstorm' };

let harness: DiscordHarness;

beforeAll(async () => {
  harness = await startDiscordHarness();
});
afterAll(async () => {
  await harness?.stop();
});

function outgoing(speaker: Speaker, content: string, extra: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return { speaker, content, replyTo: [], ...extra };
}

function progress(previewExternalId: string | null = null): DeliveryProgress {
  return { previewExternalId, deliveredExternalIds: [], onChunkDelivered: async () => undefined };
}

async function openRoom(title: string): Promise<string> {
  const { fake } = harness;
  const topic = fake.post(fake.channels['brainstorm']!.id, fake.people.ada, title);
  return (await harness.bot.transport.openRoom({ originChannelId: fake.channels['brainstorm']!.id, originMessageId: topic.id, title })).roomId;
}

/** Requests the fake refused (4xx) since the log had `from` entries. */
function refusedSince(from: number): string[] {
  return harness.fake.router.log
    .slice(from)
    .filter((entry) => entry.status >= 400 && entry.status < 500)
    .map((entry) => `${entry.method} ${entry.routeName} ${entry.status}`);
}

/** Five references with real-looking jump links, as the delivery service builds them. */
function references(roomId: string): ReplyReference[] {
  const speakers = ['Claude', 'Grok', 'ChatGPT', 'Claude', 'ada'];
  return speakers.map((speakerName, index) => ({
    messageId: 40 + index,
    externalId: `14${index}0000000000000000`,
    speakerName,
    excerpt: `A long point made by ${speakerName} that goes on about rollout risk and flags `.repeat(2),
    url: `https://discord.com/channels/${harness.fake.guildId}/${roomId}/14${index}0000000000000000`,
  }));
}

describe('withheld answer after a streamed preview', () => {
  it('deletes the preview through the webhook that posted it and posts the notice as the bot, with no request refused', async () => {
    const roomId = await openRoom('Withheld');
    const from = harness.fake.router.log.length;
    const previewId = await harness.bot.transport.postPreview(roomId, outgoing(claude, 'Here is my key sk-'));
    await harness.bot.transport.deliver(roomId, outgoing(system, "Claude's answer was withheld: it looked like a secret."), progress(previewId));
    const visible = harness.fake.messagesIn(roomId);
    expect(visible.map((message) => [message.origin, message.content])).toEqual([['bot', "Claude's answer was withheld: it looked like a secret."]]);
    expect(harness.fake.state.findMessage(previewId)?.deleted).toBe(true);
    expect(refusedSince(from)).toEqual([]);
  });

  it('does the same after a restart, when the transport does not know how the preview was posted', async () => {
    const roomId = await openRoom('Withheld after restart');
    const previewId = await harness.bot.transport.postPreview(roomId, outgoing(claude, 'Partial answer'));
    const from = harness.fake.router.log.length;
    const restarted = new DiscordTransport({ client: harness.bot.client, clock: harness.clock, logger: createLogger({ level: 'silent', secrets: [] }) });
    await restarted.deliver(roomId, outgoing(system, "Claude's answer was withheld."), progress(previewId));
    expect(harness.fake.messagesIn(roomId).map((message) => message.content)).toEqual(["Claude's answer was withheld."]);
    expect(refusedSince(from)).toEqual([]);
  });
});

describe('reply references', () => {
  it('take one short line, so an answer under 2000 characters is one message', async () => {
    const roomId = await openRoom('Reply line');
    const answer = `${'We should flag every risky change and review the flags monthly. '.repeat(28)}`.trim();
    expect(answer.length).toBeGreaterThan(1750);
    const result = await harness.bot.transport.deliver(roomId, outgoing(claude, answer, { replyTo: references(roomId), simulated: true }), progress());
    expect(result.externalIds).toHaveLength(1);
    const [message] = harness.fake.messagesIn(roomId);
    const [line, ...rest] = message!.content.split('\n');
    expect(line).toMatch(/^-# ↪ replying to Claude.*, Grok.*, ChatGPT.*, ada/);
    expect(rest.join('\n').startsWith(answer)).toBe(true);
  });

  it('stay with the answer when it is split: the first message is never references only', async () => {
    const roomId = await openRoom('Reply line, long answer');
    const answer = 'x'.repeat(1500) + ' ' + 'y'.repeat(1500);
    const previewId = await harness.bot.transport.postPreview(roomId, outgoing(claude, 'x'.repeat(200)));
    await harness.clock.advance(1000);
    const result = await settleWithClock(
      harness.bot.transport.deliver(roomId, outgoing(claude, answer, { replyTo: references(roomId) }), progress(previewId)),
      harness.clock,
    );
    const [first] = harness.fake.messagesIn(roomId);
    expect(result.externalIds[0]).toBe(previewId);
    expect(first!.content.split('\n')).toHaveLength(2);
    expect(first!.content.split('\n')[1]).toMatch(/^x{100}/);
  });
});

describe('edit pacing', () => {
  it('leaves a second between edits of one message, the final edit included', async () => {
    const { clock, fake } = harness;
    const roomId = await openRoom('Pacing');
    const previewId = await harness.bot.transport.postPreview(roomId, outgoing(grok, 'Counterpoint'));
    const editedAt: number[] = [];
    fake.state.onDispatch((event, data) => {
      if (event === GatewayDispatchEvents.MessageUpdate && (data as { id: string }).id === previewId) editedAt.push(clock.now().getTime());
    });
    const streamed = harness.bot.transport.editPreview(roomId, previewId, outgoing(grok, 'Counterpoint: a hosted'));
    await clock.advance(1000);
    await streamed;
    await settleWithClock(harness.bot.transport.deliver(roomId, outgoing(grok, 'Counterpoint: a hosted service is cheaper.'), progress(previewId)), clock);
    expect(fake.state.findMessage(previewId)?.content).toBe('Counterpoint: a hosted service is cheaper.');
    expect(editedAt).toHaveLength(2);
    expect(editedAt[1]! - editedAt[0]!).toBeGreaterThanOrEqual(1000);
  });
});

describe('an answer streamed by one process and delivered by another', () => {
  it('stays whole: an edit of the stream held back for pacing is dropped when the stream finishes, not sent after the answer', async () => {
    const { clock, fake } = harness;
    const roomId = await openRoom('Delivered elsewhere');
    const streaming = harness.bot.transport;
    // The preview's row is still being written (the database is slow) when the next words come: they go to the
    // transport at once, which holds the edit back until a second after the post.
    let recorded: () => void = () => undefined;
    let rowBeingWritten: () => void = () => undefined;
    const writing = new Promise<void>((resolve) => (rowBeingWritten = resolve));
    const record = {
      posted: () => {
        rowBeingWritten();
        return new Promise<void>((resolve) => (recorded = resolve));
      },
      removed: async () => undefined,
    };
    const draft = new StreamDraft(
      streaming,
      roomId,
      { speaker: grok, replyTo: [] },
      clock,
      (text) => text,
      () => undefined,
      record,
    );
    draft.update('Unpopular');
    await writing;
    draft.update('Unpopular take');
    await new Promise((resolve) => setImmediate(resolve));
    recorded();
    const previewId = await draft.finish();
    // Another process's job worker delivers the stored answer at once; its transport knows nothing of the stream.
    const elsewhere = new DiscordTransport({ client: harness.bot.client, clock, logger: createLogger({ level: 'silent', secrets: [] }) });
    await elsewhere.deliver(roomId, outgoing(grok, 'Unpopular take: ship it weekly.'), progress(previewId));
    await clock.advance(1000);
    // Whatever the streaming process still had to send for the room is sent before this.
    await streaming.deliver(roomId, outgoing(claude, 'Agreed.'), progress());
    expect(fake.messagesIn(roomId).map((message) => message.content)).toEqual(['Unpopular take: ship it weekly.', 'Agreed.']);
  });
});

describe('room order', () => {
  it('keeps answers written before a command ahead of its reply, through a burst of 429s on the webhook', async () => {
    const { fake } = harness;
    const roomId = await openRoom('Order');
    harness.gateway.messageReply = (message) => (message.content === '!stop' ? { content: 'Stopped. Wrapping up…', private: false } : null);
    try {
      const hitsBefore = fake.rateLimits.hits.length;
      fake.injectRateLimit({ route: 'webhook.execute', count: 3, retryAfterSeconds: 0.3 });
      const answers = [claude, grok].map((speaker, index) => harness.bot.transport.deliver(roomId, outgoing(speaker, `Answer ${index + 1}`), progress()));
      // A 429 changes nothing the fake's waiters watch, so look for it turn by turn.
      while (fake.rateLimits.hits.length === hitsBefore) await new Promise<void>((resolve) => setImmediate(resolve));
      const stop = fake.post(roomId, fake.people.ada, '!stop');
      await harness.bot.handled(stop.id);
      await Promise.all(answers);
      const said = fake.messagesIn(roomId).filter((message) => message.origin !== 'person');
      expect(said.map((message) => message.content)).toEqual(['Answer 1', 'Answer 2', 'Stopped. Wrapping up…']);
    } finally {
      harness.gateway.messageReply = () => null;
    }
  });
});

describe('a delivery resumed after a run that posted without recording it (a process killed, or its database away)', () => {
  const resumed = (since: Date, delivered: string[] = []): DeliveryProgress => ({ ...progress(), deliveredExternalIds: delivered, resumedSince: since });

  it('takes the message the earlier run posted instead of posting it twice', async () => {
    const roomId = await openRoom('Resumed delivery');
    const since = new Date();
    const first = await harness.bot.transport.deliver(roomId, outgoing(claude, 'Start with a pilot in one team.'), progress());
    const again = await harness.bot.transport.deliver(roomId, outgoing(claude, 'Start with a pilot in one team.'), resumed(since));
    expect(again.externalIds).toEqual(first.externalIds);
    expect(harness.fake.messagesIn(roomId).map((message) => message.content)).toEqual(['Start with a pilot in one team.']);
  });

  it('posts only the parts of a long answer that the earlier run did not', async () => {
    const roomId = await openRoom('Resumed long answer');
    const since = new Date();
    const long = outgoing(claude, Array.from({ length: 3 }, (_, part) => `Part ${part + 1}: ${'word '.repeat(380)}`).join('\n\n'));
    const recorded: string[] = [];
    // The run dies after its second part is posted: the first part's id was recorded, the second's never was.
    const dying: DeliveryProgress = {
      ...progress(),
      onChunkDelivered: async (externalId) => {
        if (recorded.length > 0) throw new Error('process killed');
        recorded.push(externalId);
      },
    };
    await expect(harness.bot.transport.deliver(roomId, long, dying)).rejects.toThrow('process killed');
    expect(harness.fake.messagesIn(roomId)).toHaveLength(2);
    const again = await harness.bot.transport.deliver(roomId, long, resumed(since, recorded));
    const visible = harness.fake.messagesIn(roomId);
    expect(visible).toHaveLength(3);
    expect(again.externalIds).toEqual(visible.map((message) => message.id));
  });

  it('finds it past a page of what people said in between', async () => {
    const roomId = await openRoom('Resumed, busy room');
    const since = new Date();
    for (let index = 0; index < 130; index += 1) harness.fake.post(roomId, harness.fake.people.ada, `Thought ${index + 1}`);
    const first = await harness.bot.transport.deliver(roomId, outgoing(claude, 'Start with a pilot in one team.'), progress());
    const again = await harness.bot.transport.deliver(roomId, outgoing(claude, 'Start with a pilot in one team.'), resumed(since));
    expect(again.externalIds).toEqual(first.externalIds);
    expect(harness.fake.messagesIn(roomId).filter((message) => message.origin !== 'person')).toHaveLength(1);
  });

  it('posts anew when the room holds the words from another speaker only, and on a first run always', async () => {
    const roomId = await openRoom('Resumed, other speaker');
    const since = new Date();
    await harness.bot.transport.deliver(roomId, outgoing(grok, 'Agreed.'), progress());
    await harness.bot.transport.deliver(roomId, outgoing(claude, 'Agreed.'), resumed(since));
    await harness.bot.transport.deliver(roomId, outgoing(system, 'Agreed.'), resumed(since));
    await harness.bot.transport.deliver(roomId, outgoing(claude, 'Agreed.'), progress());
    expect(harness.fake.messagesIn(roomId).map((message) => message.origin)).toEqual(['webhook', 'webhook', 'bot', 'webhook']);
  });
});

describe('half-written answers nobody recorded, in a room taken over', () => {
  it('removes ours that this process is not writing, and leaves its own live preview, finished answers and what people wrote', async () => {
    const roomId = await openRoom('Strays');
    // The process that died: its preview was posted but never recorded.
    const left = await harness.bot.transport.postPreview(roomId, outgoing(claude, 'Half of an answer ▍'));
    await harness.bot.transport.deliver(roomId, outgoing(grok, 'A finished answer.'), progress());
    harness.fake.post(roomId, harness.fake.people.ada, 'I would stop here ▍');
    const taker = new DiscordTransport({ client: harness.bot.client, clock: harness.clock, logger: createLogger({ level: 'silent', secrets: [] }) });
    const live = await taker.postPreview(roomId, outgoing(grok, 'Still writing ▍'));
    expect(await taker.removeStrayPreviews(roomId)).toBe(1);
    expect(harness.fake.state.findMessage(left)?.deleted).toBe(true);
    expect(harness.fake.messagesIn(roomId).map((message) => [message.origin, message.content])).toEqual([
      ['webhook', 'A finished answer.'],
      ['person', 'I would stop here ▍'],
      ['webhook', 'Still writing ▍'],
    ]);
    expect(live).toBeDefined();
    expect(await taker.removeStrayPreviews(roomId)).toBe(0);
  });
});
