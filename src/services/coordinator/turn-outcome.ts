import type { ModelResponse } from '@openai/agents';
import type { ChatMessage } from '../../core/domain.ts';
import type { CutReason } from './turn-control.ts';

/** The mark a cut answer ends with, in every view (room, console, record). */
export const INTERRUPTED_MARK = '— *(interrupted)*';

/** How a participant's turn ended (`interrupted` without a message: nothing of it was shown, so it was dropped). */
export type TurnOutcome =
  | { status: 'answered'; message: ChatMessage }
  /** `repeatOf`: withheld for repeating that earlier answer of its own (the round tells the room, not the turn). */
  | { status: 'withheld'; reason: string; repeatOf?: number }
  | { status: 'interrupted'; message: ChatMessage | null; cut: CutReason }
  /** `partial`: what its model wrote before it failed, kept with the interrupted mark (null: nothing was written). */
  | { status: 'failed'; error: unknown; partial?: ChatMessage | null };

/**
 * `responses`: the attempt's model responses, paid for though their answer is not shown; `cue`: what the next try
 * is told besides its usual input (why its answer was not taken).
 */
export type Attempt = TurnOutcome | { status: 'retry'; reason: string; responses: readonly ModelResponse[]; cue?: string; repeatOf?: number };
/** `images_refused`: the endpoint refused a request showing images before a word was written; try without them. */
export type FirstAttempt = Attempt | { status: 'images_refused'; error: unknown };
