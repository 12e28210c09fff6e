import type { AgentInputItem } from '@openai/agents';
import { attributedLine, buildParticipantInput } from '../../agents/participants/conversation-input.ts';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import { effectiveParameters } from '../limits/limits-service.ts';
import type { DocumentationPort } from '../../core/ports.ts';
import type { TokenCounter } from './token-counter.ts';

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
}

/** The input of one participant turn and what it costs. */
export interface BuiltContext {
  items: AgentInputItem[];
  estimatedTokens: number;
  percentOfWindow: number;
  compressed: boolean;
}

/**
 * Builds each participant's input: the whole attributed history while it is small; above
 * `CONTEXT_REFRESH_THRESHOLD`% of the window (or the history budget) the latest Scribe record plus the
 * recent messages; above the plan's context percentage (within `MAX_CONTEXT_WINDOW_PERCENT`) an immediate,
 * awaited Scribe pass first. So the prompt of a turn stays flat as a session grows.
 */
export class ContextManager {
  private readonly forced = new Set<string>();

  constructor(private readonly options: ContextManagerOptions) {}

  /** `!refresh`: the next turns of this session use the record from the store of truth. */
  forceRefresh(sessionId: string): void {
    this.forced.add(sessionId);
  }

  /**
   * Builds the input for `selfName` (a participant using `model`) answering `answering`. `loaded` is the
   * session's history when the caller has it already (the participants of one round share it).
   */
  async build(session: Session, selfName: string, model: string, answering: ChatMessage[], loaded?: ChatMessage[]): Promise<BuiltContext> {
    const window = await this.options.contextWindow(model);
    const limits = this.options.limits();
    const history = (loaded ?? (await this.options.messages.listForSession(session.id))).filter(
      (message) => DISCUSSION_SPEAKERS.has(message.speaker.kind) && message.deliveryStatus !== 'withheld',
    );
    const costs = history.map((message) => this.options.tokens.countFor(model, attributedLine(message)));
    const historyTokens = costs.reduce((sum, cost) => sum + cost, 0);
    const refreshAt = Math.min((window * limits.contextRefreshPercent) / 100, this.options.historyBudgetTokens);
    const forced = this.forced.delete(session.id);

    if (historyTokens <= refreshAt && !forced) {
      return this.finish(buildParticipantInput({ selfName, messages: history, record: null, answering }), model, window, false);
    }
    // The plan's percentage (never above the admin bound) decides when the record must be refreshed first.
    const maxPercent = effectiveParameters(session, limits).maxContextPercent;
    if (historyTokens + INSTRUCTION_ALLOWANCE > (window * maxPercent) / 100) {
      await this.options.documentation.requestRecord(session.id, { urgent: true });
    }
    const record = forced ? await this.options.documentation.refreshRecord(session.id) : await this.options.documentation.latestRecord(session.id);
    // Record and recent messages share the budget, so a compressed prompt is never larger than an
    // uncompressed one was allowed to be: the prompt stays flat however long the session runs.
    const recent = takeRecent(history, costs, this.options.historyBudgetTokens / 2);
    const recordText = record ? this.clipRecord(record, model, this.options.historyBudgetTokens / 2) : null;
    const items = buildParticipantInput({ selfName, messages: recent, record: recordText, answering });
    return this.finish(items, model, window, true);
  }

  private finish(items: AgentInputItem[], model: string, window: number, compressed: boolean): BuiltContext {
    const estimatedTokens = INSTRUCTION_ALLOWANCE + items.reduce((sum, item) => sum + this.options.tokens.countFor(model, itemText(item)), 0);
    return { items, estimatedTokens, percentOfWindow: (estimatedTokens / window) * 100, compressed };
  }

  private clipRecord(record: string, model: string, budget: number): string {
    if (this.options.tokens.countFor(model, record) <= budget) return record;
    const ratio = budget / this.options.tokens.countFor(model, record);
    return `${record.slice(0, Math.floor(record.length * ratio))}\n\n(record shortened to fit the context window)`;
  }
}

function takeRecent(history: ChatMessage[], costs: number[], budget: number): ChatMessage[] {
  let spent = 0;
  let start = history.length;
  while (start > 0) {
    const cost = costs[start - 1] ?? 0;
    if (history.length - start >= MIN_RECENT_MESSAGES && spent + cost > budget) break;
    spent += cost;
    start -= 1;
  }
  return history.slice(start);
}

function itemText(item: AgentInputItem): string {
  if (!('content' in item)) return '';
  const content = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}
