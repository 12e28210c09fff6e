/** The local channel's deliveries in this process's memory: for an app built without a database store (tests). */
import type { LocalDelivery, LocalDeliveryStore } from '../core/local-channel.ts';

/** Keeps the newest `maxPerRoom` deliveries of each room. */
export class MemoryLocalDeliveries implements LocalDeliveryStore {
  private readonly rooms = new Map<string, LocalDelivery[]>();

  constructor(private readonly maxPerRoom: number) {}

  /** Keeps a delivery unless one with its id is kept already. */
  async save(delivery: LocalDelivery): Promise<void> {
    const kept = this.rooms.get(delivery.roomId) ?? [];
    if (kept.some((entry) => entry.externalId === delivery.externalId)) return;
    kept.push(delivery);
    if (kept.length > this.maxPerRoom) kept.splice(0, kept.length - this.maxPerRoom);
    this.rooms.set(delivery.roomId, kept);
  }

  /** The room's newest `limit` deliveries, oldest first. */
  async listForRoom(roomId: string, limit: number): Promise<LocalDelivery[]> {
    return (this.rooms.get(roomId) ?? []).slice(-limit);
  }
}
