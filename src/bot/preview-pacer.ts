/**
 * Keeps edits of one message at least a second apart where they reach Discord, the final edit included. The
 * delivery service throttles when it asks, but a busy thread (the per-room queue, a 429) can bunch edits up; here
 * the newest text replaces any edit still waiting, and the next one leaves a full interval after the previous
 * one finished.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../core/clock.ts';

interface PacedMessage {
  lastSentAt: number;
  /** True once an edit reached Discord (the post itself does not hold back the final edit). */
  edited: boolean;
  next: (() => Promise<void>) | null;
  running: Promise<void> | null;
  stop: AbortController;
  /** Its writer stopped (see `settle`): no edit of the stream is sent any more. */
  settled: boolean;
}

/** Paces edits per message id. */
export class PreviewPacer {
  private readonly messages: LRUCache<string, PacedMessage>;
  /** Messages whose final text is delivered: a late streaming edit must not overwrite it. */
  private readonly finished = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly minIntervalMs = 1000,
    private readonly remember = 500,
  ) {
    this.messages = new LRUCache<string, PacedMessage>({
      max: remember,
      // Only a message pushed out by newer ones is finished here; `finish` removes its own entry (reason `delete`).
      // The entry is still in the cache during `dispose`, so `release` must not touch `messages`.
      dispose: (paced, messageId, reason) => {
        if (reason === 'evict') void this.release(messageId, paced);
      },
    });
  }

  /** Starts pacing a message just posted. */
  posted(messageId: string): void {
    this.messages.set(messageId, {
      lastSentAt: this.clock.now().getTime(),
      edited: false,
      next: null,
      running: null,
      stop: new AbortController(),
      settled: false,
    });
  }

  /**
   * The stream's writer stopped: an edit still waiting is dropped, and this resolves once the one being sent (if
   * any) is done, so no edit of the stream lands after the final text, which another process's delivery may write
   * as soon as the answer is stored. The entry stays, so that this process's own final edit is still paced (`finish`).
   */
  async settle(messageId: string): Promise<void> {
    const paced = this.messages.peek(messageId);
    if (!paced) return;
    paced.settled = true;
    paced.next = null;
    paced.stop.abort();
    paced.stop = new AbortController();
    await paced.running?.catch(() => undefined);
  }

  /** Whether an edit of the message is still wanted: false once its stream settled or its final text was delivered. */
  editable(messageId: string): boolean {
    return !this.finished.has(messageId) && this.messages.peek(messageId)?.settled !== true;
  }

  /** Sends `edit` when the interval allows; a newer edit for the same message replaces this one if it is still waiting. */
  schedule(messageId: string, edit: () => Promise<void>): Promise<void> {
    // An edit leaves the message's age alone: the oldest post is the one let go, however busy it still is.
    const paced = this.messages.peek(messageId);
    if (!this.editable(messageId)) return Promise.resolve();
    if (!paced) return edit();
    paced.next = edit;
    paced.running ??= this.drain(paced).finally(() => {
      paced.running = null;
    });
    return paced.running;
  }

  /**
   * Stops pacing because the final text is about to be delivered: edits still waiting are dropped, one already
   * sent is let finish, and this resolves once a full interval has passed since the last edit.
   */
  async finish(messageId: string): Promise<void> {
    const paced = this.messages.peek(messageId);
    if (!paced) return;
    this.messages.delete(messageId);
    await this.release(messageId, paced);
  }

  /** Finishes a message whose entry `finish` has removed or the cache is evicting; it leaves `messages` alone. */
  private async release(messageId: string, paced: PacedMessage): Promise<void> {
    this.finished.add(messageId);
    if (this.finished.size > this.remember) this.finished.delete(this.finished.values().next().value ?? messageId);
    paced.stop.abort();
    await paced.running?.catch(() => undefined);
    if (paced.edited) await this.clock.sleep(paced.lastSentAt + this.minIntervalMs - this.clock.now().getTime());
  }

  private async drain(paced: PacedMessage): Promise<void> {
    while (paced.next) {
      const wait = paced.lastSentAt + this.minIntervalMs - this.clock.now().getTime();
      if (wait > 0) {
        try {
          await this.clock.sleep(wait, paced.stop.signal);
        } catch {
          return;
        }
      }
      const edit = paced.next;
      paced.next = null;
      if (!edit || paced.stop.signal.aborted) return;
      try {
        await edit();
      } finally {
        paced.lastSentAt = this.clock.now().getTime();
        paced.edited = true;
      }
    }
  }
}
