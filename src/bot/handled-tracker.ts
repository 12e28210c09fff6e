/** Keeps track of event handlers in progress, so `stop()` can wait for them and tests can wait for one. */
export class HandledTracker {
  private readonly inFlight = new Set<Promise<void>>();
  /** The newest handling in progress for each id. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly done = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(private readonly remember = 1000) {}

  /** Follows the handling of one event; its failure is the handler's business (handlers log their own). */
  track(id: string, work: Promise<void>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    this.running.set(id, settled);
    void settled.then(() => {
      this.inFlight.delete(settled);
      if (this.running.get(id) === settled) this.running.delete(id);
      this.markDone(id);
    });
  }

  /**
   * Resolves when the handlings of these ids now in progress have finished (at once for none): an edit or a deletion
   * made at once waits for the message's own handling to store it, or it would find nothing to change.
   */
  async after(...ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.running.get(id)));
  }

  /** Resolves once the event with this id has been handled (at once if it already was). */
  handled(id: string): Promise<void> {
    if (this.done.has(id)) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]));
  }

  /** Resolves when every handler in progress has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private markDone(id: string): void {
    this.done.add(id);
    if (this.done.size > this.remember) {
      const oldest = this.done.values().next().value;
      if (oldest !== undefined) this.done.delete(oldest);
    }
    for (const resolve of this.waiters.get(id) ?? []) resolve();
    this.waiters.delete(id);
  }
}
