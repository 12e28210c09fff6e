import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { StreamDraft } from '../../../../src/services/delivery/stream-draft.ts';
import { sequentialIds } from '../../../../src/core/ids.ts';
import { LocalTransport } from '../../../../src/web/local-transport.ts';
import { MemoryTransport } from '../../../support/memory-transport.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A room that lets a preview be taken out (as Discord does), or refuses while it is unreachable. */
class RemovingTransport extends MemoryTransport {
  unreachable = false;
  async removePreview(_roomId: string, externalId: string): Promise<void> {
    if (this.unreachable) throw new Error('simulated network failure');
    this.messages.splice(
      this.messages.findIndex((entry) => entry.externalId === externalId),
      1,
    );
  }
}

/** A draft on a room that records its preview as the delivery service does. */
function recordedDraft(transport: MemoryTransport, log: string[], errors: unknown[]): StreamDraft {
  const record = { posted: async (id: string) => void log.push(`posted ${id}`), removed: async (id: string) => void log.push(`removed ${id}`) };
  const template = { speaker: { kind: 'participant' as const, name: 'Claude' }, replyTo: [] };
  return new StreamDraft(
    transport,
    'room-1',
    template,
    new ManualClock(),
    (text) => text,
    (error) => errors.push(error),
    record,
  );
}

describe('StreamDraft', () => {
  it('posts on the first words, edits at most once a second, and always shows the latest text', async () => {
    const clock = new ManualClock();
    const transport = new MemoryTransport();
    const draft = new StreamDraft(
      transport,
      'room-1',
      { speaker: { kind: 'participant', name: 'Claude' }, replyTo: [] },
      clock,
      (text) => text,
      () => undefined,
    );
    draft.update('Hello');
    await flush();
    expect(transport.messages).toHaveLength(1);
    expect(transport.messages[0]?.content).toBe('Hello ▍');
    for (let index = 0; index < 30; index += 1) {
      draft.update(`Hello ${'word '.repeat(index + 1)}`);
      await clock.advance(100);
    }
    // 3 seconds of streaming: at most 3 edits, and the last one carries the newest text.
    expect(draft.editCount).toBeLessThanOrEqual(3);
    expect(draft.editCount).toBeGreaterThanOrEqual(2);
    await clock.advance(1000);
    expect(transport.messages[0]?.content).toBe(`Hello ${'word '.repeat(30)} ▍`);
    expect(await draft.finish()).toBe(transport.messages[0]?.externalId);
  });

  it('clips a long answer’s preview without halving an emoji at the cut', async () => {
    const transport = new MemoryTransport();
    const draft = new StreamDraft(
      transport,
      'room-1',
      { speaker: { kind: 'participant', name: 'Claude' }, replyTo: [] },
      new ManualClock(),
      (text) => text,
      () => undefined,
    );
    draft.update(`${'a'.repeat(1899)}🚀 and much more after it`);
    await flush();
    expect(transport.messages[0]?.content).toBe(`${'a'.repeat(1899)}… ▍`);
  });

  it('masks secrets in the preview', async () => {
    const clock = new ManualClock();
    const transport = new MemoryTransport();
    const draft = new StreamDraft(
      transport,
      'room-1',
      { speaker: { kind: 'participant', name: 'Grok' }, replyTo: [] },
      clock,
      (text) => text.replace(/sk-\S+/g, '[redacted]'),
      () => undefined,
    );
    draft.update('the key is sk-abcdef123456');
    await flush();
    expect(transport.messages[0]?.content).toBe('the key is [redacted] ▍');
  });

  it('withdraws its preview from the room and forgets the record: an answer handed over is written again elsewhere', async () => {
    const transport = new RemovingTransport();
    const log: string[] = [];
    const draft = recordedDraft(transport, log, []);
    draft.update('Half of an ans');
    await draft.withdraw();
    expect(transport.messages).toEqual([]);
    expect(log).toEqual(['posted m1', 'removed m1']);
    draft.update('Half of an answer, later');
    await flush();
    expect(transport.messages).toEqual([]);
  });

  it('settles its preview with the transport before it hands it to the delivery, and once more on a second finish', async () => {
    const log: string[] = [];
    const transport = new (class extends MemoryTransport {
      async settlePreview(_roomId: string, externalId: string): Promise<void> {
        log.push(`settled ${externalId}`);
      }
    })();
    const draft = recordedDraft(transport, log, []);
    draft.update('An answer');
    expect(await draft.finish()).toBe('m1');
    expect(await draft.finish()).toBe('m1');
    expect(log).toEqual(['posted m1', 'settled m1', 'settled m1']);
  });

  it('keeps the record of a preview it could not withdraw, for the left-previews sweep', async () => {
    const transport = new RemovingTransport();
    transport.unreachable = true;
    const log: string[] = [];
    const errors: unknown[] = [];
    const draft = recordedDraft(transport, log, errors);
    draft.update('Half of an ans');
    await draft.withdraw();
    expect(transport.messages.map((entry) => entry.content)).toEqual(['Half of an ans ▍']);
    expect(log).toEqual(['posted m1']);
    expect(errors).toHaveLength(1);
  });

  it('drops a preview a room holds in this process memory (the local channel) instead of removing it', async () => {
    const transport = new LocalTransport({ clock: new ManualClock(), ids: sequentialIds() });
    const { roomId } = await transport.openRoom({ originChannelId: 'local', originMessageId: null, title: 'T' });
    const template = { speaker: { kind: 'participant' as const, name: 'Claude' }, replyTo: [] };
    const draft = new StreamDraft(
      transport,
      roomId,
      template,
      new ManualClock(),
      (text) => text,
      () => undefined,
    );
    draft.update('Half of an ans');
    await flush();
    expect((await transport.roomContents(roomId)).previews).toHaveLength(1);
    await draft.withdraw();
    expect((await transport.roomContents(roomId)).previews).toEqual([]);
  });
});
