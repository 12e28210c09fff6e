import type { Clock } from '../../core/clock.ts';
import { cutReason, runInTurnScope, TurnCut, type CutReason } from '../../core/turn-scope.ts';

export { cutReason, TurnCut, type CutReason };

/** Why a turn's deadline sleeps end: a reason of our own (an abort without one builds a DOMException every turn). */
const DEADLINES_STOPPED = new Error('turn deadlines stopped');

/** Per-participant deadlines of one answer, in milliseconds of the injected clock. */
export interface TurnDeadlines {
  firstTokenMs: number;
  answerMs: number;
}

/** A turn in flight: its own signal (linked to its round's), whether anything of it is visible yet, and its cut. */
export class TurnControl {
  private readonly controller = new AbortController();
  private readonly timers = new AbortController();
  private shown = false;
  private armed = 0;

  constructor(parent: AbortSignal, clock: Clock, deadlines: TurnDeadlines | null) {
    if (parent.aborted) this.cut(parent.reason instanceof TurnCut ? parent.reason.code : 'stopped');
    else
      parent.addEventListener('abort', () => this.cut(parent.reason instanceof TurnCut ? parent.reason.code : 'stopped'), {
        once: true,
        signal: this.timers.signal,
      });
    if (!deadlines) return;
    // Deadlines run on the injected clock (tests move it), never on the HTTP client's own timeout.
    this.arm(clock, deadlines.firstTokenMs, () => {
      if (!this.shown) this.cut('first_token_deadline');
    });
    this.arm(clock, deadlines.answerMs, () => this.cut('answer_deadline'));
  }

  /** Clock sleeps still armed as this turn's deadlines. */
  get armedDeadlines(): number {
    return this.armed;
  }

  /** The signal the model call runs under. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the answer's first text reached the room (a streaming preview). */
  get visible(): boolean {
    return this.shown;
  }

  /** The answer's first text arrived. */
  markVisible(): void {
    this.shown = true;
  }

  /** Cuts the turn (the first reason wins). */
  cut(reason: CutReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(new TurnCut(reason));
    this.timers.abort(DEADLINES_STOPPED);
  }

  /** The turn ended: its deadlines stop. */
  settle(): void {
    this.timers.abort(DEADLINES_STOPPED);
  }

  private arm(clock: Clock, milliseconds: number, onDue: () => void): void {
    this.armed += 1;
    const disarm = () => void (this.armed -= 1);
    void clock.sleep(milliseconds, this.timers.signal).then(() => {
      try {
        onDue();
      } finally {
        disarm();
      }
    }, disarm);
  }
}

/** Runs a turn's work in its scope, so what ends inside it (a model's generation span) can tell the turn was cut. */
export function runAsTurn<T>(control: TurnControl, work: () => T): T {
  return runInTurnScope(control.signal, work);
}
