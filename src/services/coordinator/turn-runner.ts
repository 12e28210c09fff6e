import { isDatabaseUnreachable } from '../../core/database-unreachable.ts';
import {
  getCurrentTrace,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  withCustomSpan,
  withTrace,
  user,
  type ModelResponse,
} from '@openai/agents';
import { PARTICIPANT_GUARDRAIL_NAMES, participantGuardrailNote } from '../../agents/guardrails/participant-output-guardrails.ts';
import { visibleAnswer } from '../../core/answer-text.ts';
import { usageOf, type RunUsage } from '../../agents/models/usage.ts';
import { citationsOf, webSearchesOf } from '../../agents/participants/web-search.ts';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { PostOptions } from '../delivery/delivery-service.ts';
import type { StreamDraft } from '../delivery/stream-draft.ts';
import type { ChatMessage, Speaker } from '../../core/domain.ts';
import type { TurnRequest, TurnRunnerOptions } from './turn-request.ts';
import { cutReason, runAsTurn } from './turn-control.ts';
import { INTERRUPTED_MARK, type Attempt, type FirstAttempt, type TurnOutcome } from './turn-outcome.ts';
import { isAbort, refusedContent } from './turn-errors.ts';
import { repeatRetry } from './turn-repeats.ts';
import { spentAnything, TurnSpending } from './turn-spending.ts';

/** One attempt's fixed inputs. */
interface TurnInput extends TurnRequest {
  speaker: Speaker;
  draft: StreamDraft | null;
  /** Whether the input shows the images people attached. */
  images: boolean;
  spending: TurnSpending;
  /** What a retry is told besides its usual input (why the last answer was not taken). */
  cue?: string;
}

function speakerOf(participant: ParticipantConfig): Speaker {
  return { kind: 'participant', name: participant.name, id: participant.id, ...(participant.avatarUrl ? { avatarUrl: participant.avatarUrl } : {}) };
}

/**
 * Runs one participant's turn: builds its context, streams its answer, stores it, then delivers it. A turn cut
 * short (stop, a person first, a deadline) never reads the unfinished run's output: what was shown is kept with an
 * interrupted mark, and an answer nobody saw yet is dropped.
 */
export class TurnRunner {
  constructor(private readonly options: TurnRunnerOptions) {}

  /** One turn; never throws (one participant failing must not block the others). */
  async run(request: TurnRequest): Promise<TurnOutcome> {
    const { session, participant, control } = request;
    const turn = () => runAsTurn(control, () => this.runTurn(request));
    // The coordinator traces a round as one trace; a turn run on its own gets its own, as its answer's span needs one.
    if (getCurrentTrace()) return turn();
    return withTrace(`Turn: ${participant.name}`, turn, { groupId: session.id, metadata: { sessionId: session.id, kind: 'turn' } });
  }

  private async runTurn(request: TurnRequest): Promise<TurnOutcome> {
    const { session, participant, control } = request;
    const speaker = speakerOf(participant);
    void this.options.typing(session).catch(() => undefined);
    const images = (await this.options.images?.accepts(participant).catch(() => false)) ?? false;
    const draft = this.options.delivery.startStream(session, speaker);
    const spending = new TurnSpending({
      modelId: participant.model,
      ...(this.options.prices ? { prices: this.options.prices } : {}),
      countTokens: (text) => this.options.tokens.countFor(participant.model, text),
    });
    const input: TurnInput = { ...request, speaker, draft, images, spending };
    try {
      const first = await this.attemptShowingImages(input);
      if (first.status !== 'retry') return first;
      spending.discard(first.responses);
      input.cue = first.cue;
      // A tripped guardrail gets one more try; the second trip withholds the answer.
      const second = await this.attemptShowingImages(input);
      if (second.status !== 'retry') return second;
      spending.discard(second.responses);
      if (control.signal.aborted) return this.cut(input, '', spending.discardedOnly());
      if (second.repeatOf !== undefined) return this.withholdRepeat(input, second.reason, second.repeatOf);
      return this.withhold(input, second.reason);
    } finally {
      control.settle();
    }
  }

  /** An attempt that falls back to words alone when the endpoint refused the images it was shown; images pause a while. */
  private async attemptShowingImages(input: TurnInput): Promise<Attempt> {
    const outcome = await this.attempt(input);
    if (outcome.status !== 'images_refused') return outcome;
    this.options.images?.refused(input.participant);
    this.options.logger.warn(
      { err: outcome.error, session: input.session.id, participant: input.participant.id },
      'participant model refused the images it was shown; answering without them',
    );
    input.images = false;
    const retried = await this.attempt(input);
    return retried.status === 'images_refused' ? { status: 'failed', error: retried.error, partial: null } : retried;
  }

  private async attempt(input: TurnInput): Promise<FirstAttempt> {
    const { session, participant, control, draft } = input;
    let written = '';
    let text = '';
    let estimatedTokens = 0;
    let imageCount = 0;
    let run: { rawResponses: readonly ModelResponse[] } | null = null;
    try {
      const built = await this.options.context.build(session, participant.name, participant.model, input.answering, input.history, {
        images: input.images,
      });
      estimatedTokens = built.estimatedTokens;
      imageCount = built.imageCount;
      this.options.limits.recordContextUse(session.id, built.percentOfWindow);
      const agent = this.options.agents.participant(session, participant, input.roster);
      const context = { ports: this.options.toolPorts(session), sessionId: session.id };
      const items = input.cue ? [...built.items, user(`[Room]: ${input.cue}`)] : built.items;
      const result = await this.options.runner.run(agent, items, { stream: true, signal: control.signal, context, maxTurns: 2 });
      run = result;
      // The run's own events, not toTextStream(): that pipes every event through a TransformStream and validates each
      // delta with zod again, a cost per chunk on the thread every session shares.
      for await (const event of result) {
        if (event.type !== 'raw_model_stream_event' || event.data.type !== 'output_text_delta') continue;
        written += event.data.delta;
        text = visibleAnswer(written, participant.name);
        if (/\S/.test(text)) control.markVisible();
        draft?.update(text);
      }
      await result.completed;
      if (result.error) throw result.error;
      // A cut run ends without an error and without a final output: what streamed so far is all there is.
      if (result.cancelled || control.signal.aborted) return this.cut(input, text, input.spending.cut(estimatedTokens, text));
      const answer = visibleAnswer(String(result.finalOutput ?? written), participant.name).trim();
      // An answer that was its own name's label alone says nothing: tried again, as an empty one is.
      if (answer === '') return { status: 'retry', reason: participantGuardrailNote(PARTICIPANT_GUARDRAIL_NAMES.notEmpty), responses: result.rawResponses };
      const repeat = await repeatRetry(answer, participant.name, input.history, session.id);
      if (repeat) return { status: 'retry', reason: repeat.reason, cue: repeat.cue, repeatOf: repeat.repeatOf, responses: result.rawResponses };
      const usage = input.spending.answered(result.rawResponses);
      // An image's tokens are a guess: the words' correction learns from prompts of words alone.
      if (built.imageCount === 0) this.options.tokens.observe(participant.model, built.estimatedTokens, usageOf(result).inputTokens);
      const previewId = await draft?.finish();
      // Stop gate: an answer finished just as the turn was cut is kept only as far as it was shown, marked.
      if (control.signal.aborted) return this.cut(input, answer, usage);
      const message = await this.store(input, answer, usage, previewId, {
        citations: citationsOf(result.rawResponses),
        webSearches: webSearchesOf(result.rawResponses),
      });
      return { status: 'answered', message };
    } catch (error) {
      // A conversation carrying a secret is never sent: no second try, the turn is withheld with the reason.
      if (error instanceof InputGuardrailTripwireTriggered)
        return this.withhold(input, 'its input carried what looks like a secret, so nothing was sent to its model');
      if (error instanceof OutputGuardrailTripwireTriggered && !control.signal.aborted) {
        return {
          status: 'retry',
          reason: participantGuardrailNote(error.result.guardrail.name),
          responses: run?.rawResponses ?? [],
        };
      }
      if (control.signal.aborted || isAbort(error)) return this.cut(input, text, input.spending.cut(estimatedTokens, text));
      if (imageCount > 0 && text === '' && refusedContent(error)) return { status: 'images_refused', error };
      // Not the model's failure: its preview leaves the room, the round stops, and the session resumes once the
      // database is back (Coordinator), with this answer asked for again.
      if (isDatabaseUnreachable(error)) {
        await input.draft?.withdraw().catch(() => undefined);
        throw error;
      }
      this.options.logger.warn({ err: error, session: session.id, participant: participant.id }, 'participant turn failed');
      // A model that fails mid-answer (an error inside its stream) had its first words shown: they are kept, marked,
      // rather than left in the room as a preview nobody finishes.
      // A request the endpoint refused is not billed; words it wrote before failing were.
      const spent = text.trim() === '' ? input.spending.discardedOnly() : input.spending.cut(estimatedTokens, text);
      return { status: 'failed', error, partial: await this.keepShown(input, text, spent) };
    }
  }

  /** The notice that replaces a withheld answer; it carries what the withheld attempts cost, so the session counts it. */
  private async withhold(input: TurnInput, reason: string): Promise<TurnOutcome> {
    const { session, speaker, participant, draft } = input;
    const previewId = (await draft?.finish()) ?? null;
    this.options.logger.info({ session: session.id, participant: participant.id, reason }, 'participant answer withheld by a guardrail');
    const usage = input.spending.discardedOnly();
    await this.options.delivery.post(session, { kind: 'system', name: 'Brainstorm' }, `${speaker.name}'s answer was withheld: ${reason}.`, {
      previewExternalId: previewId,
      ...(spentAnything(usage) ? { usage } : {}),
    });
    return { status: 'withheld', reason };
  }

  /**
   * A repeat withheld without a notice of its own: its preview is taken down and what it cost is counted, and the
   * coordinator tells the room once for the whole round (three stuck models would otherwise post three notices for
   * every message a person sends).
   */
  private async withholdRepeat(input: TurnInput, reason: string, repeatOf: number): Promise<TurnOutcome> {
    await input.draft?.withdraw();
    this.options.logger.info({ session: input.session.id, participant: input.participant.id, reason }, 'participant answer withheld as a repeat');
    await this.spendUnshown(input, input.spending.discardedOnly());
    return { status: 'withheld', reason, repeatOf };
  }

  private async store(
    input: TurnInput,
    text: string,
    usage: RunUsage,
    previewExternalId: string | null | undefined,
    web: Pick<PostOptions, 'citations' | 'webSearches'>,
  ): Promise<ChatMessage> {
    const { session, speaker, participant, answering } = input;
    return withCustomSpan(
      async (span) => {
        const message = await this.options.delivery.post(session, speaker, text, {
          replyTo: answering.slice(-5),
          model: participant.model,
          usage,
          countsAsMessage: true,
          previewExternalId: previewExternalId ?? null,
          traceId: span.traceId,
          ...web,
        });
        span.spanData.data = { messageId: message.id, speaker: speaker.name, sessionId: session.id };
        return message;
      },
      { data: { name: 'deliver_message', data: { speaker: speaker.name, sessionId: session.id } } },
    );
  }

  /**
   * A cut turn: what was shown is stored with the interrupted mark; nothing shown is dropped. A turn cut by a
   * handover is taken out of the room: the next owner has the participant answer again. `spent`: what its model
   * calls cost, counted whether or not a message carries it.
   */
  private async cut(input: TurnInput, partialText: string, spent: RunUsage): Promise<TurnOutcome> {
    const reason = cutReason(input.control.signal) ?? 'stopped';
    if (reason === 'handed_over') {
      await input.draft?.withdraw();
      await this.spendUnshown(input, spent);
      return { status: 'interrupted', message: null, cut: reason };
    }
    const message = await this.keepShown(input, partialText, spent);
    if (message) this.options.logger.info({ session: input.session.id, participant: input.participant.id, cut: reason }, 'participant answer cut short');
    return { status: 'interrupted', message, cut: reason };
  }

  /**
   * Stores what an unfinished answer wrote, with the interrupted mark and what it cost, in place of its preview;
   * null when it wrote nothing (its cost is then counted without a message).
   */
  private async keepShown(input: TurnInput, partialText: string, usage: RunUsage): Promise<ChatMessage | null> {
    const { session, speaker, participant, answering, draft } = input;
    const previewId = (await draft?.finish()) ?? null;
    const partial = partialText.trim();
    if (partial === '') {
      await this.spendUnshown(input, usage);
      return null;
    }
    return this.options.delivery.post(session, speaker, `${partial}\n\n${INTERRUPTED_MARK}`, {
      replyTo: answering.slice(-5),
      model: participant.model,
      usage,
      countsAsMessage: true,
      previewExternalId: previewId,
      interrupted: true,
    });
  }

  /** Counts what a turn's model calls cost when no stored message carries it; a failure to count is logged, never thrown. */
  private async spendUnshown(input: TurnInput, usage: RunUsage): Promise<void> {
    if (!spentAnything(usage) || !this.options.spend) return;
    await this.options.spend(input.session.id, usage).catch((error: unknown) => {
      this.options.logger.warn({ err: error, session: input.session.id }, 'could not count an unshown answer toward its session');
    });
  }
}
