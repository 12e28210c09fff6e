import type { Clock } from '../../core/clock.ts';
import type { OutgoingMessage, Transport } from '../../core/ports.ts';
import { clipText } from '../../core/text-clip.ts';

/** Discord allows about 5 edits per 5 s per channel; one per second leaves room for everyone else. */
export const MIN_EDIT_INTERVAL_MS = 1000;
/** Previews longer than this are cut (the final delivery splits properly). */
const PREVIEW_LIMIT = 1900;

/** Where a room's previews are recorded while they could outlive this process (see LeftPreviews). */
export interface PreviewRecord {
  posted(externalId: string): Promise<void>;
  /** The preview was taken out of its room: nothing is left to clean up. */
  removed(externalId: string): Promise<void>;
}

/**
 * The preview of an answer while it streams: posted on the first tokens, then edited at most once a second
 * (the last text always lands). Failures only cost the preview; the final delivery goes through the outbox.
 */
export class StreamDraft {
  private previewId: string | null = null;
  private posting: Promise<void> | null = null;
  private lastEditAt = 0;
  private latestText = '';
  private shownText = '';
  private trailing: Promise<void> | null = null;
  private closed = false;
  /** Edits sent (bench and tests read it). */
  editCount = 0;

  constructor(
    private readonly transport: Transport,
    private readonly roomId: string,
    private readonly template: Omit<OutgoingMessage, 'content'>,
    private readonly clock: Clock,
    private readonly sanitize: (text: string) => string,
    private readonly onError: (error: unknown) => void,
    /** Told the preview's id once it is posted, and once removed (kept where previews outlive the process). */
    private readonly record: PreviewRecord | null = null,
  ) {}

  /** The text written so far (the whole answer, not a delta). */
  update(text: string): void {
    if (this.closed || text.trim() === '') return;
    this.latestText = text;
    if (this.previewId === null) {
      this.posting ??= this.postFirst();
      return;
    }
    this.scheduleEdit();
  }

  /**
   * Stops streaming; returns the preview's external id for the final delivery to replace, if any. An edit the
   * transport still holds back is dropped (or let finish) first: the delivery may run in another process at once,
   * and an edit of the stream landing after it would turn the answer back into a half-written one.
   */
  async finish(): Promise<string | null> {
    this.closed = true;
    await this.posting;
    if (this.previewId !== null) await this.transport.settlePreview?.(this.roomId, this.previewId);
    return this.previewId;
  }

  /**
   * Stops streaming and takes the preview out of the room: an unfinished answer that will be written again elsewhere
   * must not stay half-written. One that cannot be removed now stays recorded, for the left-previews sweep.
   */
  async withdraw(): Promise<void> {
    const previewId = await this.finish();
    if (previewId === null) return;
    if (!this.transport.removePreview) return this.transport.discardPreview?.(this.roomId, previewId);
    try {
      await this.transport.removePreview(this.roomId, previewId);
      await this.record?.removed(previewId);
    } catch (error) {
      this.onError(error);
    }
  }

  private preview(text: string): OutgoingMessage {
    const clipped = text.length > PREVIEW_LIMIT ? `${clipText(text, PREVIEW_LIMIT)}…` : text;
    return { ...this.template, content: `${this.sanitize(clipped)} ▍` };
  }

  private async postFirst(): Promise<void> {
    try {
      const text = this.latestText;
      this.previewId = await this.transport.postPreview(this.roomId, this.preview(text));
      await this.record?.posted(this.previewId);
      this.shownText = text;
      this.lastEditAt = this.clock.now().getTime();
      if (this.latestText !== this.shownText) this.scheduleEdit();
    } catch (error) {
      this.onError(error);
    }
  }

  private scheduleEdit(): void {
    if (this.trailing) return;
    const wait = Math.max(0, this.lastEditAt + MIN_EDIT_INTERVAL_MS - this.clock.now().getTime());
    this.trailing = this.clock
      .sleep(wait)
      .then(() => this.edit())
      .finally(() => {
        this.trailing = null;
        if (!this.closed && this.latestText !== this.shownText) this.scheduleEdit();
      });
  }

  private async edit(): Promise<void> {
    if (this.closed || this.previewId === null || this.latestText === this.shownText) return;
    const text = this.latestText;
    this.lastEditAt = this.clock.now().getTime();
    this.editCount += 1;
    try {
      await this.transport.editPreview(this.roomId, this.previewId, this.preview(text));
      this.shownText = text;
    } catch (error) {
      this.onError(error);
    }
  }
}
