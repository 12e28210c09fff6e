import type { AgentInputItem } from '@openai/agents';
import { attributedLine, buildParticipantInput, RECENT_CHAT_MESSAGES, RECORD_HEADING, turnCue } from '../../agents/participants/conversation-input.ts';
import { imagesToShow, TOKENS_PER_IMAGE } from '../../agents/participants/shared-images.ts';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import { effectiveParameters } from '../limits/limits-service.ts';
import type { DocumentationPort } from '../../core/ports.ts';
import { HistoryTokens, type RecentHistory } from './history-tokens.ts';
import type { TokenCounter } from './token-counter.ts';
import { clipText } from '../../core/text-clip.ts';

export type { RecentHistory } from './history-tokens.ts';

/** Speakers whose messages are part of the discussion a participant sees. */
const DISCUSSION_SPEAKERS = new Set(['human', 'participant', 'moderator']);
/** Tokens reserved for instructions and the answer, beside the history. */
const INSTRUCTION_ALLOWANCE = 600;
/** Never fewer recent messages than this, whatever the budget. */
const MIN_RECENT_MESSAGES = 6;

/** Options of the context manager. */
export interface ContextManagerOptions {
  messages: MessagesRepository;
  documentation: DocumentationPort;
  tokens: TokenCounter;
  contextWindow: (model: string) => Promise<number>;
  limits: () => LimitsConfig;
  /** History beyond this many tokens is replaced by the Scribe record plus recent messages. */
  historyBudgetTokens: number;
  /** The time an image address is checked for expiry against (default: the system clock). */
  now?: () => Date;
  /** Tells the other processes of a `!refresh` handled here (the session's owner may be one of them); absent alone. */
  announceRefresh?: (sessionId: string) => void;
}

/** How a turn's input is built. */
export interface BuildOptions {
  /** Show the images people attached to the recent messages (the participant's model sees images). */
  images?: boolean;
}

/** Discussion messages at hand and their sizes; `total` is the whole history's. */
interface Measured {
  history: ChatMessage[];
  costs: number[];
  total: number;
  complete: boolean;
}

/** The input of one participant turn and what it costs. */
export interface BuiltContext {
  items: AgentInputItem[];
  estimatedTokens: number;
  percentOfWindow: number;
  compressed: boolean;
  /** How many images the input shows. */
  imageCount: number;
}

/**
 * Builds each participant's input: the whole attributed history while it is small; above
 * `CONTEXT_REFRESH_THRESHOLD`% of the window (or the history budget) the latest Scribe record plus the
 * recent messages; above the plan's context percentage (within `MAX_CONTEXT_WINDOW_PERCENT`) an immediate,
 * awaited Scribe pass first. So the prompt of a turn stays flat as a session grows.
 */
export class ContextManager {
  private readonly forced = new Set<string>();
  private readonly sizes = new HistoryTokens();
  /** The record each round's participants read, once per round: they share the round's history object. */
  private readonly roundRecords = new WeakMap<RecentHistory, Promise<string | null>>();
  /** Rounds (by the history their participants share) that a `!refresh` reached: each participant reads the record. */
  private readonly forcedRounds = new WeakSet<RecentHistory>();
  /**
   * Each message's attributed line in raw tokens, by message object: a round's history holds the same objects from one
   * round to the next (an edited message comes as a new one), so a turn counts only what is new instead of building
   * and hashing every line of its window again for every participant.
   */
  private readonly lineTokens = new WeakMap<ChatMessage, number>();

  constructor(private readonly options: ContextManagerOptions) {}

  /** `!refresh`: the next turns of this session use the record from the store of truth. */
  forceRefresh(sessionId: string): void {
    this.forced.add(sessionId);
    this.options.announceRefresh?.(sessionId);
  }

  /** A `!refresh` handled by another process: the next round here reads the record (when this process runs it). */
  refreshedElsewhere(sessionId: string): void {
    this.forced.add(sessionId);
  }

  /**
   * Builds the input for `selfName` (a participant using `model`) answering `answering`. `loaded` is the session's
   * recent history when the caller has it already (the participants of one round share it): the sizes of older
   * messages come from what this manager counted before, and the whole history is read only when the prompt needs it.
   */
  async build(
    session: Session,
    selfName: string,
    model: string,
    answering: ChatMessage[],
    loaded?: RecentHistory,
    how: BuildOptions = {},
  ): Promise<BuiltContext> {
    const window = await this.options.contextWindow(model);
    const limits = this.options.limits();
    const refreshAt = Math.min((window * limits.contextRefreshPercent) / 100, this.options.historyBudgetTokens);
    const forced = this.takeForced(session.id, loaded);
    let measured = await this.measure(session.id, model, loaded);
    // The window is not enough when the whole history goes in (it is small after all), or when the recent part
    // the prompt keeps reaches past the window's start.
    if (!measured.complete && ((measured.total <= refreshAt && !forced) || this.recentStart(measured) === 0)) {
      measured = await this.measure(session.id, model, undefined);
    }
    const { history, total: historyTokens } = measured;
    const cueTokens = this.options.tokens.countFor(model, turnCue(selfName, answering));

    if (historyTokens <= refreshAt && !forced) {
      const images = this.images(history, how);
      const items = buildParticipantInput({ selfName, messages: history, record: null, answering, images });
      return this.finish(items, sum(measured.costs) + cueTokens, window, false, images);
    }
    // The plan's percentage (never above the admin bound) decides when the record must be refreshed first.
    const maxPercent = effectiveParameters(session, limits).maxContextPercent;
    if (historyTokens + INSTRUCTION_ALLOWANCE > (window * maxPercent) / 100) {
      await this.options.documentation.requestRecord(session.id, { urgent: true });
    }
    const record = await this.roundRecord(session.id, loaded, forced);
    // Record and recent messages share the budget, so a compressed prompt is never larger than an
    // uncompressed one was allowed to be: the prompt stays flat however long the session runs.
    const start = this.recentStart(measured);
    const recordText = record ? this.clipRecord(record, model, this.options.historyBudgetTokens / 2) : null;
    const images = this.images(history.slice(start), how);
    const items = buildParticipantInput({ selfName, messages: history.slice(start), record: recordText, answering, images });
    const recordTokens = recordText ? this.options.tokens.countFor(model, `${RECORD_HEADING}\n${recordText}`) : 0;
    return this.finish(items, sum(measured.costs.slice(start)) + recordTokens + cueTokens, window, true, images);
  }

  /** The discussion messages at hand (the whole history when `loaded` is absent), their sizes and the history's. */
  private async measure(sessionId: string, model: string, loaded: RecentHistory | undefined): Promise<Measured> {
    const source = loaded ?? { messages: await this.options.messages.listForSession(sessionId), complete: true };
    const history = source.messages.filter((message) => DISCUSSION_SPEAKERS.has(message.speaker.kind) && message.deliveryStatus !== 'withheld');
    if (!source.complete && !this.sizes.covers(sessionId, history)) return this.measure(sessionId, model, undefined);
    this.sizes.extend(sessionId, history, (message) => this.rawTokens(message), source.complete);
    const correction = this.options.tokens.correctionFor(model);
    // As `countFor` counts: each line's raw count corrected for the model, rounded up.
    const costs = history.map((message) => Math.ceil(this.rawTokens(message) * correction));
    const older = source.complete ? 0 : this.sizes.olderThan(sessionId, history[0]?.id ?? 0, (raw) => Math.ceil(raw * correction));
    return { history, costs, total: older + sum(costs), complete: source.complete };
  }

  private rawTokens(message: ChatMessage): number {
    let tokens = this.lineTokens.get(message);
    if (tokens === undefined) {
      tokens = this.options.tokens.count(attributedLine(message));
      this.lineTokens.set(message, tokens);
    }
    return tokens;
  }

  /** The images shown with the messages a prompt reads as chat turns (none unless asked for). */
  private images(messages: ChatMessage[], how: BuildOptions): Map<number, string[]> {
    if (!how.images) return new Map();
    return imagesToShow(messages.slice(-RECENT_CHAT_MESSAGES), this.options.now?.() ?? new Date());
  }

  /**
   * Whether this prompt reads the record whatever the history's size: after `!refresh`, every participant of the next
   * round (it was the first participant's alone, the others answering without the edits people made in Notion).
   */
  private takeForced(sessionId: string, round: RecentHistory | undefined): boolean {
    if (round && this.forcedRounds.has(round)) return true;
    if (!this.forced.delete(sessionId)) return false;
    if (round) this.forcedRounds.add(round);
    return true;
  }

  /**
   * The newest record (refreshed from the store of truth after `!refresh`), read once for the participants of a round
   * (a failed read is not kept).
   */
  private roundRecord(sessionId: string, round: RecentHistory | undefined, refresh: boolean): Promise<string | null> {
    const read = () => (refresh ? this.options.documentation.refreshRecord(sessionId) : this.options.documentation.latestRecord(sessionId));
    if (!round) return read();
    let record = this.roundRecords.get(round);
    if (!record) {
      record = read();
      this.roundRecords.set(round, record);
      record.catch(() => this.roundRecords.delete(round));
    }
    return record;
  }

  /** Where the recent messages a compressed prompt keeps begin. */
  private recentStart(measured: Measured): number {
    return takeRecent(measured.history, measured.costs, this.options.historyBudgetTokens / 2);
  }

  /**
   * The prompt's estimate is the sum of its parts as counted before (each message's attributed line is counted once
   * and cached): the items join many lines into texts that are new every turn, which would be counted anew.
   */
  private finish(items: AgentInputItem[], contentTokens: number, window: number, compressed: boolean, images: Map<number, string[]>): BuiltContext {
    const imageCount = [...images.values()].reduce((count, addresses) => count + addresses.length, 0);
    const estimatedTokens = INSTRUCTION_ALLOWANCE + contentTokens + imageCount * TOKENS_PER_IMAGE;
    return { items, estimatedTokens, percentOfWindow: (estimatedTokens / window) * 100, compressed, imageCount };
  }

  private clipRecord(record: string, model: string, budget: number): string {
    if (this.options.tokens.countFor(model, record) <= budget) return record;
    const ratio = budget / this.options.tokens.countFor(model, record);
    return `${clipText(record, Math.floor(record.length * ratio))}\n\n(record shortened to fit the context window)`;
  }
}

/** Where the newest messages that fit `budget` begin (never fewer than MIN_RECENT_MESSAGES). */
function takeRecent(history: ChatMessage[], costs: number[], budget: number): number {
  let spent = 0;
  let start = history.length;
  while (start > 0) {
    const cost = costs[start - 1] ?? 0;
    if (history.length - start >= MIN_RECENT_MESSAGES && spent + cost > budget) break;
    spent += cost;
    start -= 1;
  }
  return start;
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
