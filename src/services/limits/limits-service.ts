import type { LimitsConfig } from '../../config/app-config.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { Session, SessionParameters } from '../../core/domain.ts';
import type { EventBus, LimitsReport } from '../../core/ports.ts';
import { activeMs } from '../../core/session-clock.ts';

/** The parameters in force for a session: its plan's, never beyond the admin bounds. */
export function effectiveParameters(session: Pick<Session, 'plan'>, bounds: LimitsConfig): SessionParameters {
  const plan = session.plan?.parameters;
  return {
    maxMessages: Math.min(plan?.maxMessages ?? bounds.maxMessages, bounds.maxMessages),
    maxTokens: Math.min(plan?.maxTokens ?? bounds.maxTokens, bounds.maxTokens),
    maxCostUsd: Math.min(plan?.maxCostUsd ?? bounds.maxCostUsd, bounds.maxCostUsd),
    timeoutMinutes: Math.min(plan?.timeoutMinutes ?? bounds.timeoutMinutes, bounds.timeoutMinutes),
    maxContextPercent: Math.min(plan?.maxContextPercent ?? bounds.maxContextPercent, bounds.maxContextPercent),
  };
}

/** Names of the limits a report can say were reached. */
export type LimitName = 'messages' | 'tokens' | 'cost' | 'time';

/** Checks a session's usage against its limits; run before every turn. */
export class LimitsService {
  private readonly contextPercent = new Map<string, number>();

  /**
   * `contextWindow`: a model's window in tokens, to read a session's context use after a restart (absent: 0 until a
   * turn). `events`: an ended session's context use is forgotten, so the map holds live sessions only.
   */
  constructor(
    private readonly messages: MessagesRepository,
    private readonly bounds: () => LimitsConfig,
    private readonly clock: Clock,
    private readonly contextWindow?: (model: string) => Promise<number>,
    events?: Pick<EventBus, 'subscribe'>,
  ) {
    events?.subscribe((event) => {
      if (event.type === 'session_ended') this.contextPercent.delete(event.sessionId);
    });
  }

  /** Remembers the largest context use of the latest turn (percent of a window). */
  recordContextUse(sessionId: string, percent: number): void {
    this.contextPercent.set(sessionId, percent);
  }

  /** The limits a session has reached, from its running counters alone (no query: run before every turn). */
  exceeded(session: Session): LimitName[] {
    const parameters = effectiveParameters(session, this.bounds());
    const minutes = activeMs(session, this.clock.now()) / 60_000;
    const exceeded: LimitName[] = [];
    if (session.messageCount >= parameters.maxMessages) exceeded.push('messages');
    if (session.totalTokens >= parameters.maxTokens) exceeded.push('tokens');
    if (session.totalCostUsd >= parameters.maxCostUsd) exceeded.push('cost');
    if (session.startedAt && minutes >= parameters.timeoutMinutes) exceeded.push('time');
    return exceeded;
  }

  /**
   * Answers a new round may start: the messages left under the limit, less the answers already in flight. So the
   * counter never passes its maximum by more than what was in flight when a person spoke.
   */
  seatsLeft(session: Session, inFlight: number): number {
    const parameters = effectiveParameters(session, this.bounds());
    return Math.max(0, parameters.maxMessages - session.messageCount - inFlight);
  }

  /** Every limit of a session with its use (read no further than its maximum), and which were reached. */
  async report(session: Session): Promise<LimitsReport> {
    const parameters = effectiveParameters(session, this.bounds());
    const minutes = activeMs(session, this.clock.now()) / 60_000;
    const balance = (await this.messages.countBySpeaker(session.id))
      .filter((entry) => entry.kind === 'participant' || entry.kind === 'human')
      .map((entry) => ({ speaker: entry.speaker, messages: entry.messages }));
    const exceeded = this.exceeded(session);
    return {
      messages: { used: Math.min(session.messageCount, parameters.maxMessages), limit: parameters.maxMessages },
      tokens: { used: Math.min(session.totalTokens, parameters.maxTokens), limit: parameters.maxTokens },
      costUsd: { used: Math.min(Math.round(session.totalCostUsd * 10_000) / 10_000, parameters.maxCostUsd), limit: parameters.maxCostUsd },
      minutes: { used: Math.min(Math.round(minutes * 10) / 10, parameters.timeoutMinutes), limit: parameters.timeoutMinutes },
      contextPercent: { used: Math.round(await this.contextUse(session.id)), limit: parameters.maxContextPercent },
      balance,
      exceeded,
    };
  }

  /**
   * The context use of the session's latest turn. Kept in memory as turns build their context; after a restart, until
   * the next turn, read from the latest answer: its prompt as its provider counted it, against its model's window.
   */
  private async contextUse(sessionId: string): Promise<number> {
    const recorded = this.contextPercent.get(sessionId);
    if (recorded !== undefined || !this.contextWindow) return recorded ?? 0;
    const latest = (await this.messages.listRecent(sessionId, 12)).findLast(
      (message) => message.speaker.kind === 'participant' && message.model && message.inputTokens > 0,
    );
    if (!latest?.model) return 0;
    const window = await this.contextWindow(latest.model).catch(() => 0);
    return window > 0 ? (latest.inputTokens / window) * 100 : 0;
  }
}

/** A plain-language line for a reached limit. */
export function describeLimit(limit: string): string {
  switch (limit) {
    case 'messages':
      return 'the message limit was reached';
    case 'tokens':
      return 'the token budget was used up';
    case 'cost':
      return 'the cost limit was reached';
    case 'time':
      return 'the time limit was reached';
    default:
      return `the ${limit} limit was reached`;
  }
}
