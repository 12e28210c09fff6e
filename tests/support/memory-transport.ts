import type { DeliveredMessage, DeliveryProgress, OutgoingMessage, Transport } from '../../src/core/ports.ts';

/** A message as the in-memory room shows it. */
export interface RoomMessage {
  externalId: string;
  roomId: string;
  speaker: string;
  speakerKind: string;
  content: string;
  replyTo: string[];
  actions: string[];
  simulated: boolean;
  preview: boolean;
  edits: number;
}

/** A transport that keeps rooms in memory, for tests and benchmarks; it can be told to fail. */
export class MemoryTransport implements Transport {
  readonly name: string;
  readonly messages: RoomMessage[] = [];
  readonly rooms: { roomId: string; title: string; originChannelId: string }[] = [];
  /** Messages by external id: a bench posts tens of thousands, and each edit of a preview finds its message. */
  private readonly byExternalId = new Map<string, RoomMessage>();
  typingCount = 0;
  /** Deliveries to fail before succeeding (each failure throws like a network error). */
  failDeliveries = 0;
  private sequence = 0;

  /** `roomPrefix` keeps room ids apart when several transports share one database. */
  constructor(
    name = 'memory',
    private readonly roomPrefix = 'room',
  ) {
    this.name = name;
  }

  async openRoom(request: { originChannelId: string; originMessageId: string | null; title: string }) {
    const roomId = `${this.roomPrefix}-${this.rooms.length + 1}`;
    this.rooms.push({ roomId, title: request.title, originChannelId: request.originChannelId });
    return { roomId, url: `memory://${roomId}` };
  }

  async deliver(roomId: string, message: OutgoingMessage, progress: DeliveryProgress): Promise<DeliveredMessage> {
    if (this.failDeliveries > 0) {
      this.failDeliveries -= 1;
      throw new Error('simulated network failure');
    }
    if (progress.deliveredExternalIds.length > 0) return { externalIds: progress.deliveredExternalIds, url: null };
    const preview = progress.previewExternalId ? this.byExternalId.get(progress.previewExternalId) : undefined;
    const entry = preview ?? this.create(roomId, message, false);
    Object.assign(entry, this.fields(message), { preview: false });
    if (preview) entry.edits += 1;
    return { externalIds: [entry.externalId], url: null };
  }

  async postPreview(roomId: string, message: OutgoingMessage): Promise<string> {
    return this.create(roomId, message, true).externalId;
  }

  async editPreview(_roomId: string, externalId: string, message: OutgoingMessage): Promise<void> {
    const entry = this.byExternalId.get(externalId);
    if (entry) {
      entry.content = message.content;
      entry.edits += 1;
    }
  }

  async sendTyping(): Promise<void> {
    this.typingCount += 1;
  }

  /** The final (non-preview) messages of a room, in order. */
  room(roomId: string): RoomMessage[] {
    return this.messages.filter((entry) => entry.roomId === roomId && !entry.preview);
  }

  private create(roomId: string, message: OutgoingMessage, preview: boolean): RoomMessage {
    this.sequence += 1;
    const entry: RoomMessage = { externalId: `m${this.sequence}`, roomId, ...this.fields(message), preview, edits: 0 };
    this.messages.push(entry);
    this.byExternalId.set(entry.externalId, entry);
    return entry;
  }

  private fields(message: OutgoingMessage) {
    return {
      speaker: message.speaker.name,
      speakerKind: message.speaker.kind,
      content: message.content,
      replyTo: message.replyTo.map((reference) => reference.speakerName),
      actions: message.actions ?? [],
      simulated: message.simulated ?? false,
    };
  }
}
