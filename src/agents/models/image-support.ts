import type { Clock } from '../../core/clock.ts';
import type { ModelListing } from './model-listing.ts';

/** How long a model that refused an image is sent none (its endpoint may gain image input, or the image was at fault). */
export const IMAGE_REFUSAL_MS = 60 * 60 * 1000;

/** What decides whether a participant's model is shown images. */
export interface ImageParticipant {
  model: string;
  /** The roster's say; absent: the listing's. */
  images?: boolean;
}

/**
 * Which participants are shown the images people share: the roster's `images` when set, else whether the endpoint's
 * `/models` lists image among the model's input modalities. A model whose request with images was refused is sent
 * none for `IMAGE_REFUSAL_MS`, so a turn pays for that refusal once, not every turn.
 */
export class ImageSupport {
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    private readonly listing: ModelListing,
    private readonly clock: Clock,
  ) {}

  /** True when `participant`'s model is to be shown images now. */
  async accepts(participant: ImageParticipant): Promise<boolean> {
    const until = this.refusedUntil.get(participant.model);
    if (until !== undefined && until > this.clock.now().getTime()) return false;
    if (participant.images !== undefined) return participant.images;
    const listed = (await this.listing.get())?.get(participant.model);
    return listed?.inputModalities?.includes('image') ?? false;
  }

  /** Its endpoint refused a request that carried images: send the model none for a while. */
  refused(participant: ImageParticipant): void {
    this.refusedUntil.set(participant.model, this.clock.now().getTime() + IMAGE_REFUSAL_MS);
  }
}
