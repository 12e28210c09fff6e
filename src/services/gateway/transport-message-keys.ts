/** A bounded set of transport messages (`transport` + external id): past its capacity the oldest is forgotten. */
export class TransportMessageKeys {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** Whether the message is in the set. */
  has(transport: string, externalId: string): boolean {
    return this.keys.has(key(transport, externalId));
  }

  /** Adds a message (as the newest), forgetting the oldest past the capacity. */
  add(transport: string, externalId: string): void {
    const entry = key(transport, externalId);
    this.keys.delete(entry);
    this.keys.add(entry);
    if (this.keys.size <= this.capacity) return;
    const oldest = this.keys.values().next().value;
    if (oldest !== undefined) this.keys.delete(oldest);
  }

  /** Forgets a message. */
  delete(transport: string, externalId: string): void {
    this.keys.delete(key(transport, externalId));
  }
}

function key(transport: string, externalId: string): string {
  return `${transport}\u0000${externalId}`;
}
