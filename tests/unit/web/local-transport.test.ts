import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { sequentialIds } from '../../../src/core/ids.ts';
import type { DeliveryProgress, OutgoingMessage } from '../../../src/core/ports.ts';
import type { LocalDelivery, LocalDeliveryStore } from '../../../src/core/local-channel.ts';
import { LocalTransport, type LocalChannelEvent } from '../../../src/web/local-transport.ts';

const message = (content: string): OutgoingMessage => ({ speaker: { kind: 'participant', name: 'Claude' }, content, replyTo: [], simulated: true });

function progress(delivered: string[] = [], previewExternalId: string | null = null): DeliveryProgress & { chunks: string[] } {
  const chunks: string[] = [];
  return { previewExternalId, deliveredExternalIds: delivered, chunks, onChunkDelivered: async (externalId) => void chunks.push(externalId) };
}

function transport() {
  const local = new LocalTransport({ clock: new ManualClock(), ids: sequentialIds() });
  const events: LocalChannelEvent[] = [];
  local.subscribe((event) => events.push(event));
  local.setConsoleUrl('http://127.0.0.1:7420');
  return { local, events };
}

describe('LocalTransport', () => {
  it('opens rooms with console links and resolves a waiter for the message that opened it', async () => {
    const { local, events } = transport();
    const waiting = local.waitForRoom('lin_1', new AbortController().signal);
    const opened = await local.openRoom({ originChannelId: 'local', originMessageId: 'lin_1', title: 'Topic' });
    expect(opened).toEqual({ roomId: 'room_1', url: 'http://127.0.0.1:7420/#/rooms/room_1' });
    expect((await waiting)?.roomId).toBe('room_1');
    expect(events.map((event) => event.type)).toEqual(['room']);
  });

  it('gives up waiting when aborted', async () => {
    const { local } = transport();
    const controller = new AbortController();
    const waiting = local.waitForRoom('never', controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
  });

  it('delivers once per message, returns its one chunk (no chunk follows it, so none is reported early), and replays a retried delivery without posting again', async () => {
    const { local, events } = transport();
    const { roomId } = await local.openRoom({ originChannelId: 'local', originMessageId: null, title: 'T' });
    const first = progress();
    const delivered = await local.deliver(roomId, { ...message('Hello'), actions: ['approve_plan'] }, first);
    expect(delivered).toEqual({ externalIds: ['lmsg_1'], url: 'http://127.0.0.1:7420/#/rooms/room_1/m/lmsg_1' });
    expect(first.chunks).toEqual([]);
    const retried = await local.deliver(roomId, message('Hello'), progress(['lmsg_1']));
    expect(retried.externalIds).toEqual(['lmsg_1']);
    expect((await local.roomContents(roomId))?.deliveries.map((entry) => [entry.externalId, entry.content, entry.actions])).toEqual([
      ['lmsg_1', 'Hello', ['approve_plan']],
    ]);
    expect(events.filter((event) => event.type === 'delivery')).toHaveLength(1);
  });

  it('streams a preview and replaces it with the final delivery under the same id; late edits are ignored', async () => {
    const { local } = transport();
    const { roomId } = await local.openRoom({ originChannelId: 'local', originMessageId: null, title: 'T' });
    const previewId = await local.postPreview(roomId, message('Hel'));
    await local.editPreview(roomId, previewId, message('Hello wor'));
    expect((await local.roomContents(roomId))?.previews.map((preview) => preview.content)).toEqual(['Hello wor']);
    const delivered = await local.deliver(roomId, message('Hello world'), progress([], previewId));
    expect(delivered.externalIds).toEqual([previewId]);
    await local.editPreview(roomId, previewId, message('stale'));
    expect(await local.roomContents(roomId)).toMatchObject({ previews: [], deliveries: [{ externalId: previewId, content: 'Hello world' }] });
  });

  it('keeps delivering to a room it has not seen (a session resumed after a restart)', async () => {
    const { local } = transport();
    await local.deliver('room_from_before', message('still here'), progress());
    expect((await local.roomContents('room_from_before'))?.deliveries).toHaveLength(1);
  });

  it('shows a delivery only once its store kept it: one the store refused fails (its job retries) and leaves the preview', async () => {
    let refuse = true;
    const kept: LocalDelivery[] = [];
    const store: LocalDeliveryStore = {
      save: async (delivery) => {
        if (refuse) throw new Error('database unreachable');
        kept.push(delivery);
      },
      listForRoom: async (roomId) => kept.filter((delivery) => delivery.roomId === roomId),
    };
    const local = new LocalTransport({ clock: new ManualClock(), ids: sequentialIds(), store });
    const events: LocalChannelEvent[] = [];
    local.subscribe((event) => events.push(event));
    const { roomId } = await local.openRoom({ originChannelId: 'local', originMessageId: null, title: 'T' });
    const previewId = await local.postPreview(roomId, message('Hel'));
    await expect(local.deliver(roomId, message('Hello'), progress([], previewId))).rejects.toThrow('database unreachable');
    expect(events.some((event) => event.type === 'delivery')).toBe(false);
    expect(await local.roomContents(roomId)).toMatchObject({ deliveries: [], previews: [{ externalId: previewId }] });
    refuse = false;
    await local.deliver(roomId, message('Hello'), progress([], previewId));
    expect(await local.roomContents(roomId)).toMatchObject({ deliveries: [{ externalId: previewId, content: 'Hello' }], previews: [] });
  });

  it('shows a room it has not seen since it started from its store (after a restart, another process)', async () => {
    const kept: LocalDelivery = {
      externalId: 'lmsg_9',
      roomId: 'room_before',
      speaker: { kind: 'planner', name: 'Planner' },
      content: 'Proposed plan',
      replyTo: [],
      actions: ['approve_plan'],
      buttons: [],
      simulated: false,
      deliveredAt: '2026-03-01T10:00:00.000Z',
    };
    const store: LocalDeliveryStore = { save: async () => undefined, listForRoom: async (roomId) => (roomId === kept.roomId ? [kept] : []) };
    const local = new LocalTransport({ clock: new ManualClock(), ids: sequentialIds(), store });
    expect(await local.roomContents('room_before')).toEqual({ deliveries: [kept], previews: [] });
  });

  it('caps the deliveries kept per room', async () => {
    const local = new LocalTransport({ clock: new ManualClock(), ids: sequentialIds(), maxDeliveriesPerRoom: 2 });
    const { roomId } = await local.openRoom({ originChannelId: 'local', originMessageId: null, title: 'T' });
    for (const text of ['a', 'b', 'c']) await local.deliver(roomId, message(text), progress());
    expect((await local.roomContents(roomId))?.deliveries.map((entry) => entry.content)).toEqual(['b', 'c']);
  });

  it("names a room a resumed session posted in before anything named it by its session's topic, never by its id", async () => {
    const { local } = transport();
    // After a restart the session resumes and answers before anyone opens its room or lists the rooms.
    await local.sendTyping('room_old');
    await local.deliver('room_old', message('an answer after the restart'), progress());
    expect(local.listRooms()).toEqual([]);
    expect(local.getRoom('room_old')).toBeNull();
    const adopted = local.adoptRoom('room_old', 'Cut the AWS bill by 30%', '2026-07-01T09:00:00.000Z');
    expect(adopted).toMatchObject({ roomId: 'room_old', title: 'Cut the AWS bill by 30%', openedAt: '2026-07-01T09:00:00.000Z' });
    expect(local.listRooms().map((room) => room.title)).toEqual(['Cut the AWS bill by 30%']);
    expect(local.adoptRoom('room_old', 'Another title').title).toBe('Cut the AWS bill by 30%');
  });

  it('drops a preview whose answer another process will write, and tells the live views', async () => {
    const { local, events } = transport();
    const { roomId } = await local.openRoom({ originChannelId: 'local', originMessageId: null, title: 'T' });
    const previewId = await local.postPreview(roomId, message('Half of an ans'));
    local.discardPreview(roomId, previewId);
    expect((await local.roomContents(roomId)).previews).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'preview-removed', roomId, externalId: previewId });
    local.discardPreview(roomId, previewId);
    expect(events.filter((event) => event.type === 'preview-removed')).toHaveLength(1);
  });
});
