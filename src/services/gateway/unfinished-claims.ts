/** How many messages a process remembers as cut short; past it the oldest is forgotten (a transport holds 500). */
const DEFAULT_CAPACITY = 2000;

/**
 * People's messages this process claimed, or tried to, whose handling the database cut short. The transport holds
 * such a message and hands it over again; the claim, if it committed, is then this process's own and is taken again.
 * Read as another's, it dropped the message: a claim whose answer was lost, or a store that failed after the claim.
 */
export class UnfinishedClaims {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Whether the message was cut short here before. */
  has(transport: string, externalId: string): boolean {
    return this.keys.has(key(transport, externalId));
  }

  /** Remembers a message cut short, forgetting the oldest past the capacity. */
  add(transport: string, externalId: string): void {
    const entry = key(transport, externalId);
    this.keys.delete(entry);
    this.keys.add(entry);
    if (this.keys.size <= this.capacity) return;
    const oldest = this.keys.values().next().value;
    if (oldest !== undefined) this.keys.delete(oldest);
  }

  /** Forgets a message: it was taken in, refused, or failed for good. */
  delete(transport: string, externalId: string): void {
    this.keys.delete(key(transport, externalId));
  }
}

function key(transport: string, externalId: string): string {
  return `${transport}\u0000${externalId}`;
}
