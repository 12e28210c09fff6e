/** The console's local channel: a full Transport whose rooms show in the browser; what it delivered is kept in its store. */
import type { Clock } from '../core/clock.ts';
import type { IdGenerator } from '../core/ids.ts';
import type { DeliveredMessage, DeliveryProgress, OutgoingMessage, Transport } from '../core/ports.ts';
import type { Speaker } from '../core/domain.ts';
import type { LocalDelivery, LocalDeliveryStore } from '../core/local-channel.ts';
import { MemoryLocalDeliveries } from './memory-local-deliveries.ts';

export type { LocalDelivery } from '../core/local-channel.ts';

/** A room of the local channel (one per session). */
export interface LocalRoom {
  roomId: string;
  title: string;
  originMessageId: string | null;
  url: string | null;
  openedAt: string;
}

/** A message still being written (streaming), replaced by its delivery. */
export interface LocalPreview {
  externalId: string;
  roomId: string;
  speaker: Speaker;
  content: string;
  simulated: boolean;
  updatedAt: string;
}

/** What the local channel tells the console's live views. */
export type LocalChannelEvent =
  | { type: 'room'; room: LocalRoom }
  | { type: 'delivery'; delivery: LocalDelivery; replacedPreview: boolean }
  | { type: 'preview'; preview: LocalPreview }
  | { type: 'preview-removed'; roomId: string; externalId: string }
  | { type: 'typing'; roomId: string; at: string }
  | { type: 'notice'; roomId: string; content: string; at: string };

/** Options of the local channel. */
export interface LocalTransportOptions {
  clock: Clock;
  ids: IdGenerator;
  /** Deliveries a room's page shows (older ones are in the transcript store anyway). */
  maxDeliveriesPerRoom?: number;
  /** Where deliveries are kept (the database, so a restart keeps the rooms); absent: this process's memory. */
  store?: LocalDeliveryStore;
}

interface RoomState {
  room: LocalRoom;
  previews: Map<string, LocalPreview>;
  /** False for a room a delivery reached before anything named it (after a restart): its title is its session's. */
  described: boolean;
}

/** The local channel transport (`name: 'local'`): rooms opened by sessions, deliveries pushed to the console. */
export class LocalTransport implements Transport {
  readonly name = 'local';
  private readonly rooms = new Map<string, RoomState>();
  private readonly listeners = new Set<(event: LocalChannelEvent) => void>();
  private readonly roomWaiters = new Map<string, ((room: LocalRoom) => void)[]>();
  private readonly maxDeliveries: number;
  private readonly store: LocalDeliveryStore;
  private consoleUrl: string | null = null;

  constructor(private readonly options: LocalTransportOptions) {
    this.maxDeliveries = options.maxDeliveriesPerRoom ?? 2_000;
    this.store = options.store ?? new MemoryLocalDeliveries(this.maxDeliveries);
  }

  /** Tells the transport where the console lives, so room links are absolute. */
  setConsoleUrl(url: string | null): void {
    this.consoleUrl = url;
  }

  async openRoom(request: { originChannelId: string; originMessageId: string | null; title: string }): Promise<{ roomId: string; url: string | null }> {
    const roomId = this.options.ids.next('room');
    const url = this.consoleUrl ? `${this.consoleUrl}/#/rooms/${encodeURIComponent(roomId)}` : null;
    const room: LocalRoom = { roomId, title: request.title, originMessageId: request.originMessageId, url, openedAt: this.options.clock.now().toISOString() };
    this.rooms.set(roomId, { room, previews: new Map(), described: true });
    this.emit({ type: 'room', room });
    if (request.originMessageId) {
      for (const waiter of this.roomWaiters.get(request.originMessageId) ?? []) waiter(room);
      this.roomWaiters.delete(request.originMessageId);
    }
    return { roomId, url };
  }

  async deliver(roomId: string, message: OutgoingMessage, progress: DeliveryProgress): Promise<DeliveredMessage> {
    const state = this.requireRoom(roomId);
    // A retried delivery whose one chunk already went out must not show twice.
    if (progress.deliveredExternalIds.length > 0)
      return { externalIds: progress.deliveredExternalIds, url: this.messageUrl(roomId, progress.deliveredExternalIds[0] as string) };
    const externalId = progress.previewExternalId ?? this.options.ids.next('lmsg');
    const delivery: LocalDelivery = {
      externalId,
      roomId,
      speaker: message.speaker,
      content: message.content,
      replyTo: message.replyTo,
      actions: message.actions ?? [],
      buttons: message.buttons ?? [],
      simulated: message.simulated === true,
      deliveredAt: this.options.clock.now().toISOString(),
    };
    // Kept before it shows: a delivery that could not be kept fails, and its job delivers it again.
    await this.store.save(delivery);
    const replacedPreview = progress.previewExternalId !== null && state.previews.delete(progress.previewExternalId);
    const url = this.messageUrl(roomId, externalId);
    this.emit({ type: 'delivery', delivery, replacedPreview });
    return { externalIds: [externalId], url };
  }

  async postPreview(roomId: string, message: OutgoingMessage): Promise<string> {
    const state = this.requireRoom(roomId);
    const externalId = this.options.ids.next('lmsg');
    this.storePreview(state, externalId, message);
    return externalId;
  }

  async editPreview(roomId: string, externalId: string, message: OutgoingMessage): Promise<void> {
    const state = this.requireRoom(roomId);
    // An edit that arrives after the final delivery replaced the preview is stale: ignore it.
    if (!state.previews.has(externalId)) return;
    this.storePreview(state, externalId, message);
  }

  /** Drops a streaming preview whose answer another process will write (this one let the session go). */
  discardPreview(roomId: string, externalId: string): void {
    if (this.rooms.get(roomId)?.previews.delete(externalId)) this.emit({ type: 'preview-removed', roomId, externalId });
  }

  async sendTyping(roomId: string): Promise<void> {
    this.requireRoom(roomId);
    this.emit({ type: 'typing', roomId, at: this.options.clock.now().toISOString() });
  }

  /** Shows a reply meant for the person at the console (a command answer that came back late). */
  postNotice(roomId: string, content: string): void {
    this.emit({ type: 'notice', roomId, content, at: this.options.clock.now().toISOString() });
  }

  /** Every room opened or adopted so far, newest first (one only served since a restart is its session's to describe). */
  listRooms(): LocalRoom[] {
    return [...this.rooms.values()]
      .filter((state) => state.described)
      .map((state) => state.room)
      .reverse();
  }

  /** A room opened or adopted here, or null. */
  getRoom(roomId: string): LocalRoom | null {
    const state = this.rooms.get(roomId);
    return state?.described ? state.room : null;
  }

  /**
   * What a room shows now: its deliveries (oldest first) and the previews still streaming. A room this process has
   * not seen since it started (a restart, another process's room) shows what its store kept.
   */
  async roomContents(roomId: string): Promise<{ deliveries: LocalDelivery[]; previews: LocalPreview[] }> {
    const previews = [...(this.rooms.get(roomId)?.previews.values() ?? [])];
    return { deliveries: await this.store.listForRoom(roomId, this.maxDeliveries), previews };
  }

  /** Resolves with the room opened for a person's message (its origin), or null when `signal` aborts first. */
  waitForRoom(originMessageId: string, signal: AbortSignal): Promise<LocalRoom | null> {
    const existing = [...this.rooms.values()].find((state) => state.room.originMessageId === originMessageId);
    if (existing) return Promise.resolve(existing.room);
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(null);
      const waiters = this.roomWaiters.get(originMessageId) ?? [];
      const onRoom = (room: LocalRoom) => resolve(room);
      waiters.push(onRoom);
      this.roomWaiters.set(originMessageId, waiters);
      signal.addEventListener(
        'abort',
        () => {
          const remaining = (this.roomWaiters.get(originMessageId) ?? []).filter((waiter) => waiter !== onRoom);
          if (remaining.length > 0) this.roomWaiters.set(originMessageId, remaining);
          else this.roomWaiters.delete(originMessageId);
          resolve(null);
        },
        { once: true },
      );
    });
  }

  /** Listens to the channel's events; returns the unsubscribe function. */
  subscribe(listener: (event: LocalChannelEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private storePreview(state: RoomState, externalId: string, message: OutgoingMessage): void {
    const preview: LocalPreview = {
      externalId,
      roomId: state.room.roomId,
      speaker: message.speaker,
      content: message.content,
      simulated: message.simulated === true,
      updatedAt: this.options.clock.now().toISOString(),
    };
    state.previews.set(externalId, preview);
    this.emit({ type: 'preview', preview });
  }

  /** A room known from the store (a session from before a restart, or another process's): this process serves it too. */
  adoptRoom(roomId: string, title: string, openedAt?: string): LocalRoom {
    const state = this.requireRoom(roomId);
    if (!state.described) {
      state.room = this.describeRoom(roomId, title, openedAt ?? state.room.openedAt);
      state.described = true;
    }
    return state.room;
  }

  /** How a room known only from the store reads, without this process taking it on. */
  describeRoom(roomId: string, title: string, openedAt: string): LocalRoom {
    const url = this.consoleUrl ? `${this.consoleUrl}/#/rooms/${encodeURIComponent(roomId)}` : null;
    return { roomId, title, originMessageId: null, url, openedAt };
  }

  private requireRoom(roomId: string): RoomState {
    const state = this.rooms.get(roomId);
    if (state) return state;
    const room = this.describeRoom(roomId, roomId, this.options.clock.now().toISOString());
    const created: RoomState = { room, previews: new Map(), described: false };
    this.rooms.set(roomId, created);
    return created;
  }

  private messageUrl(roomId: string, externalId: string): string | null {
    return this.consoleUrl ? `${this.consoleUrl}/#/rooms/${encodeURIComponent(roomId)}/m/${encodeURIComponent(externalId)}` : null;
  }

  private emit(event: LocalChannelEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A closed live view must not fail a delivery.
      }
    }
  }
}
