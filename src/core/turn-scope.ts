/**
 * Which turn an async context belongs to, and why it was cut: the coordinator marks each participant's turn, and
 * the tracing processor (which must not import services) reads the cut when a generation span ends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BrainstormError } from './errors.ts';

/**
 * Why a turn was cut short: the session stopped, a person spoke first, this process handed the session over (it shuts
 * down, or lost the lease: the next owner has the participant answer again), or the participant missed a deadline.
 */
export type CutReason = 'stopped' | 'preempted' | 'handed_over' | 'first_token_deadline' | 'answer_deadline';

/** The `data.status` of a span's error when a person (`!stop`, speaking first) or a handover cut its turn: nobody's fault. */
export const CUT_SPAN_STATUS = 'cut';

/** Why a span was cut short without being at fault: a person or a handover cut its turn, or the process running it stopped. */
export type SpanCutReason = CutReason | 'process_stopped';

/** The error a span carries when it was cut short through no fault of its own, with why. */
export function cutSpanError<Reason extends SpanCutReason>(reason: Reason): { message: string; data: { status: typeof CUT_SPAN_STATUS; reason: Reason } } {
  return { message: 'cut short', data: { status: CUT_SPAN_STATUS, reason } };
}

/** Why a span's turn was cut without fault, read from the span's error (`cutSpanError`); null for any other error, or none. */
export function cutReasonOf(error: { data?: unknown } | null | undefined): string | null {
  const data = error?.data;
  if (typeof data !== 'object' || data === null || !('status' in data) || data.status !== CUT_SPAN_STATUS) return null;
  return 'reason' in data && typeof data.reason === 'string' ? data.reason : 'stopped';
}

/** The abort reason of a turn's signal: says why the turn was cut. */
export class TurnCut extends BrainstormError<CutReason> {
  constructor(code: CutReason) {
    super(code, `turn cut: ${code}`);
    this.name = 'TurnCut';
  }
}

/** Why a signal's turn was cut (a plain abort counts as a stop); null while it runs. */
export function cutReason(signal: AbortSignal): CutReason | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof TurnCut ? signal.reason.code : 'stopped';
}

const turnScope = new AsyncLocalStorage<AbortSignal>();

/** Runs a turn's work in its scope, so what ends inside it (a model's generation span) can tell the turn was cut. */
export function runInTurnScope<T>(signal: AbortSignal, work: () => T): T {
  return turnScope.run(signal, work);
}

/** Why the turn running in this async context was cut; null outside a turn or while it runs. */
export function currentTurnCut(): CutReason | null {
  const signal = turnScope.getStore();
  return signal ? cutReason(signal) : null;
}
