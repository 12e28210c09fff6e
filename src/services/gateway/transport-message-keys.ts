import { LRUCache } from 'lru-cache';

/** A bounded set of transport messages (`transport` + external id): past its capacity the oldest added is forgotten. */
export class TransportMessageKeys {
  private readonly keys: LRUCache<string, true>;

  constructor(capacity: number) {
    this.keys = new LRUCache<string, true>({ max: capacity });
  }

  /** Whether the message is in the set. */
  has(transport: string, externalId: string): boolean {
    return this.keys.has(key(transport, externalId));
  }

  /** Adds a message (as the newest), forgetting the oldest past the capacity. */
  add(transport: string, externalId: string): void {
    this.keys.set(key(transport, externalId), true);
  }

  /** Forgets a message. */
  delete(transport: string, externalId: string): void {
    this.keys.delete(key(transport, externalId));
  }
}

function key(transport: string, externalId: string): string {
  return `${transport}\u0000${externalId}`;
}
