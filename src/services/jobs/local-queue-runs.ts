/** The chain of jobs running in this process for each queue, so a caller can wait for the one under way. */
export class LocalQueueRuns {
  private readonly runs = new Map<string, Promise<unknown>>();

  /** Records a queue's run until it settles. */
  track(queue: string, run: Promise<unknown>): void {
    this.runs.set(queue, run);
    const forget = () => {
      if (this.runs.get(queue) === run) this.runs.delete(queue);
    };
    run.then(forget, forget);
  }

  /** Waits for this process's run of a queue, if one is under way; true when it waited. */
  async waitFor(queue: string): Promise<boolean> {
    const run = this.runs.get(queue);
    if (!run) return false;
    await run.catch(() => undefined);
    return true;
  }
}
