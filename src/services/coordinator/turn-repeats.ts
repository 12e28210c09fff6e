/** A participant's answer that repeats its own earlier one is tried again with a cue, then withheld. */
import { traceGuardrail } from '../../agents/guardrails/guardrail-span.ts';
import { LATEST_ANSWERS_COMPARED, repeatedAnswer } from '../../core/repetition.ts';
import type { ChatMessage } from '../../core/domain.ts';
import type { RecentHistory } from '../context/context-manager.ts';

/** The guardrail's name in the traces. */
export const NO_REPEAT_GUARDRAIL = 'participant_no_repeat';

/** Why an answer was not taken, and the cue its next try reads. */
export interface RepeatRetry {
  reason: string;
  cue: string;
  /** The number of the earlier answer it repeated. */
  repeatOf: number;
}

/**
 * The retry for `answer` when it repeats one of the participant's latest answers in the round's history (checked in
 * a guardrail span of the turn's trace), else null.
 */
export async function repeatRetry(answer: string, speakerName: string, history: RecentHistory | undefined, sessionId: string): Promise<RepeatRetry | null> {
  const own = (history?.messages ?? []).filter(
    (message) => message.speaker.kind === 'participant' && message.speaker.name === speakerName && !message.interrupted,
  );
  if (own.length === 0) return null;
  const decision = await traceGuardrail(
    NO_REPEAT_GUARDRAIL,
    () => {
      const repeated = repeatedAnswer(answer, own.slice(-LATEST_ANSWERS_COMPARED));
      return repeated ? { triggered: true, reason: 'repeat', details: { repeats: repeated.number }, repeated } : { triggered: false, repeated: null };
    },
    { sessionId },
  );
  return decision.repeated ? retryFor(decision.repeated) : null;
}

function retryFor(earlier: ChatMessage): RepeatRetry {
  return {
    reason: `it repeated its own answer #${earlier.number}`,
    repeatOf: earlier.number,
    cue: `You said this already in #${earlier.number}. Add something new (a fresh angle, a concrete detail, a point you disagree with), and do not restate it.`,
  };
}
