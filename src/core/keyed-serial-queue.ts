/** Runs tasks one after another per key (per room), so messages of one thread keep their order. */
export class KeyedSerialQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` after every earlier task of `key` has settled; a failure does not block later tasks. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many keys have work queued or running. */
  get activeKeys(): number {
    return this.tails.size;
  }
}
