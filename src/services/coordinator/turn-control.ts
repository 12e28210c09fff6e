import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../clock.ts';

/** Why a turn was cut short: the session stopped, a person spoke first, or the participant missed a deadline. */
export type CutReason = 'stopped' | 'preempted' | 'first_token_deadline' | 'answer_deadline';

/** The abort reason of a turn's signal: says why the turn was cut. */
export class TurnCut extends Error {
  constructor(readonly code: CutReason) {
    super(`turn cut: ${code}`);
    this.name = 'TurnCut';
  }
}

/** Why a signal's turn was cut (a plain abort counts as a stop); null while it runs. */
export function cutReason(signal: AbortSignal): CutReason | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof TurnCut ? signal.reason.code : 'stopped';
}

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
    else parent.addEventListener('abort', () => this.cut(parent.reason instanceof TurnCut ? parent.reason.code : 'stopped'), { once: true, signal: this.timers.signal });
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
    this.timers.abort();
  }

  /** The turn ended: its deadlines stop. */
  settle(): void {
    this.timers.abort();
  }

  private arm(clock: Clock, milliseconds: number, onDue: () => void): void {
    this.armed += 1;
    void clock
      .sleep(milliseconds, this.timers.signal)
      .then(onDue, () => undefined)
      .finally(() => (this.armed -= 1));
  }
}

const turnScope = new AsyncLocalStorage<TurnControl>();

/** Runs a turn's work in its scope, so what ends inside it (a model's generation span) can tell the turn was cut. */
export function runAsTurn<T>(control: TurnControl, work: () => T): T {
  return turnScope.run(control, work);
}

/** Why the turn running in this async context was cut; null outside a turn or while it runs. */
export function currentTurnCut(): CutReason | null {
  const control = turnScope.getStore();
  return control ? cutReason(control.signal) : null;
}
