import { OutputGuardrailTripwireTriggered, withCustomSpan, type Runner } from '@openai/agents';
import type { Logger } from 'pino';
import type { AgentDirectory } from '../../agents/agent-directory.ts';
import { participantGuardrailNote } from '../../agents/guardrails/participant-output-guardrails.ts';
import { usageOf } from '../../agents/models/usage.ts';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { ContextManager } from '../context/context-manager.ts';
import type { TokenCounter } from '../context/token-counter.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { StreamDraft } from '../delivery/stream-draft.ts';
import type { ChatMessage, Session, Speaker } from '../../core/domain.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { ToolPorts } from '../../core/ports.ts';

/** What the turn runner needs. */
export interface TurnRunnerOptions {
  runner: Runner;
  agents: AgentDirectory;
  delivery: DeliveryService;
  context: ContextManager;
  tokens: TokenCounter;
  limits: LimitsService;
  toolPorts: (session: Session) => ToolPorts;
  logger: Logger;
  typing: (session: Session) => Promise<void>;
}

/** How a participant's turn ended. */
export type TurnOutcome =
  | { status: 'answered'; message: ChatMessage }
  | { status: 'withheld'; reason: string }
  | { status: 'interrupted'; message: ChatMessage | null }
  | { status: 'failed'; error: unknown };

function speakerOf(participant: ParticipantConfig): Speaker {
  return { kind: 'participant', name: participant.name, id: participant.id, ...(participant.avatarUrl ? { avatarUrl: participant.avatarUrl } : {}) };
}


/** Runs one participant's turn: builds its context, streams its answer, stores it, then delivers it. */
export class TurnRunner {
  constructor(private readonly options: TurnRunnerOptions) {}

  /** One turn; never throws (one participant failing must not block the others). */
  async run(session: Session, participant: ParticipantConfig, roster: ParticipantConfig[], answering: ChatMessage[], signal: AbortSignal, history?: ChatMessage[]): Promise<TurnOutcome> {
    const speaker = speakerOf(participant);
    void this.options.typing(session).catch(() => undefined);
    const draft = this.options.delivery.startStream(session, speaker);
    const first = await this.attempt(session, participant, roster, answering, signal, speaker, draft, history);
    if (first.status !== 'retry') return first;
    // A tripped guardrail gets one more try; the second trip withholds the answer.
    const second = await this.attempt(session, participant, roster, answering, signal, speaker, draft, history);
    if (second.status !== 'retry') return second;
    return this.withhold(session, speaker, participant, second.reason, draft);
  }

  private async attempt(
    session: Session,
    participant: ParticipantConfig,
    roster: ParticipantConfig[],
    answering: ChatMessage[],
    signal: AbortSignal,
    speaker: Speaker,
    draft: StreamDraft | null,
    history: ChatMessage[] | undefined,
  ): Promise<TurnOutcome | { status: 'retry'; reason: string }> {
    let text = '';
    try {
      const built = await this.options.context.build(session, participant.name, participant.model, answering, history);
      this.options.limits.recordContextUse(session.id, built.percentOfWindow);
      const agent = this.options.agents.participant(session, participant, roster);
      const context = { ports: this.options.toolPorts(session), sessionId: session.id };
      const result = await this.options.runner.run(agent, built.items, { stream: true, signal, context, maxTurns: 2 });
      for await (const chunk of result.toTextStream()) {
        text += chunk;
        draft?.update(text);
      }
      await result.completed;
      if (result.error) throw result.error;
      const answer = String(result.finalOutput ?? text).trim();
      const usage = usageOf(result);
      this.options.tokens.observe(participant.model, built.estimatedTokens, usage.inputTokens);
      const message = await this.store(session, speaker, answer, answering, participant.model, usage, await draft?.finish());
      return { status: 'answered', message };
    } catch (error) {
      return this.recover(error, session, speaker, answering, participant, text, draft);
    }
  }

  private async withhold(session: Session, speaker: Speaker, participant: ParticipantConfig, reason: string, draft: StreamDraft | null): Promise<TurnOutcome> {
    const previewId = (await draft?.finish()) ?? null;
    this.options.logger.info({ session: session.id, participant: participant.id, reason }, 'participant answer withheld by a guardrail');
    await this.options.delivery.post(session, { kind: 'system', name: 'Brainstorm' }, `${speaker.name}'s answer was withheld: ${reason}.`, {
      previewExternalId: previewId,
    });
    return { status: 'withheld', reason };
  }

  private async store(
    session: Session,
    speaker: Speaker,
    text: string,
    answering: ChatMessage[],
    model: string,
    usage: { inputTokens: number; outputTokens: number; costUsd: number },
    previewExternalId: string | null | undefined,
  ): Promise<ChatMessage> {
    return withCustomSpan(
      async (span) => {
        const message = await this.options.delivery.post(session, speaker, text, {
          replyTo: answering.slice(-5).map((entry) => entry.id),
          model,
          usage,
          countsAsMessage: true,
          previewExternalId: previewExternalId ?? null,
          traceId: span.traceId,
        });
        span.spanData.data = { messageId: message.id, speaker: speaker.name, sessionId: session.id };
        return message;
      },
      { data: { name: 'deliver_message', data: { speaker: speaker.name, sessionId: session.id } } },
    );
  }

  private async recover(
    error: unknown,
    session: Session,
    speaker: Speaker,
    answering: ChatMessage[],
    participant: ParticipantConfig,
    partialText: string,
    draft: StreamDraft | null,
  ): Promise<TurnOutcome | { status: 'retry'; reason: string }> {
    if (error instanceof OutputGuardrailTripwireTriggered) {
      return { status: 'retry', reason: participantGuardrailNote(error.result.guardrail.name) };
    }
    const previewId = (await draft?.finish()) ?? null;
    if (isAbort(error)) {
      if (partialText.trim() === '') return { status: 'interrupted', message: null };
      const message = await this.options.delivery.post(session, speaker, `${partialText.trim()}\n\n*(interrupted)*`, {
        replyTo: answering.slice(-5).map((entry) => entry.id),
        model: participant.model,
        countsAsMessage: true,
        previewExternalId: previewId,
      });
      return { status: 'interrupted', message };
    }
    this.options.logger.warn({ err: error, session: session.id, participant: participant.id }, 'participant turn failed');
    return { status: 'failed', error };
  }
}

/** True for the errors an AbortSignal produces (ours, the SDK's or fetch's). */
export function isAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'APIUserAbortError' || /aborted|abort/i.test(error.message);
}
