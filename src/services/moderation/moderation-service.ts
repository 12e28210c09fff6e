import type { Logger } from 'pino';
import type { ModeratorAgent } from '../../agents/moderator/moderator-agent.ts';
import { buildWrapUpChain, type ChainScribe, type ChainTldr, type WrapUpChain } from '../../agents/moderator/wrap-up-chain.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import type { ModerationVerdict } from '../../core/schemas.ts';
import type { ModerationState, Session } from '../../core/domain.ts';
import type { FocusRequest, LedgerReview, ModerationPort } from '../../core/service-ports.ts';
import type { EmbedFunction, ModerationHost, ModeratorSettings } from './moderation-host.ts';
import { fallbackHold, fallbackInvite, fallbackRedirect } from './moderation-messages.ts';
import { askModerator, type CheckFacts, type CheckTrigger, type ModeratorAnswer } from './moderator-run.ts';
import { findImbalance, type BalanceFinding } from './participation-balance.ts';
import { TopicSimilarity } from './topic-similarity.ts';
import { ModeratorVoice } from './moderator-voice.ts';
import { runWrapUp, type WrapUpResult } from './wrap-up-runner.ts';

/** While on topic, the model reviews progress at every this-many-th check (drift or imbalance: every check). */
export const PROGRESS_REVIEW_EVERY_CHECKS = 2;

/** What a check did. */
export interface CheckOutcome {
  action: ModerationVerdict['action'] | 'skipped';
  modelCalled: boolean;
  similarity: number | null;
  posted: string | null;
}

/** Everything the moderation service needs. */
export interface ModerationServiceOptions {
  host: ModerationHost;
  moderator: ModeratorAgent;
  /** The Scribe and TLDR agents for the wrap-up chain. */
  scribe: ChainScribe;
  tldr: ChainTldr;
  prompts: PromptLibrary;
  settings: () => ModeratorSettings;
  /** `ModelCatalog.embed`; null to judge drift with the model alone. */
  embed: EmbedFunction | null;
  logger: Logger;
  /** The idea ledger's check after a round (convergence close, dissent), saying what it did. */
  ledgerCheck?: (session: Session) => Promise<LedgerReview>;
  /** More for the wrap-up to read (the critique round's ranking), or null. */
  wrapUpNote?: (session: Session) => Promise<string | null>;
}

/**
 * The Moderator's service: checks every MODERATOR_CHECK_INTERVAL messages (drift with an embedding pre-test
 * confirmed by the model, participation balance, progress), `!focus`, and the wrap-up chain.
 */
export class ModerationService implements ModerationPort {
  private readonly similarity: TopicSimilarity;
  private readonly chain: WrapUpChain;
  private readonly voice: ModeratorVoice;
  private readonly inFlight = new Map<string, Promise<CheckOutcome>>();
  private readonly checksSinceReview = new Map<string, number>();
  private readonly lastInvited = new Map<string, string>();
  private calls = 0;

  constructor(private readonly options: ModerationServiceOptions) {
    this.similarity = new TopicSimilarity(options.embed);
    this.chain = buildWrapUpChain({ moderator: options.moderator, scribe: options.scribe, tldr: options.tldr, prompts: options.prompts });
    this.voice = new ModeratorVoice({ moderator: options.moderator, prompts: options.prompts, host: options.host, logger: options.logger });
  }

  /** How many times the Moderator model was asked for a check (for the bench). */
  get moderatorModelCalls(): number {
    return this.calls;
  }

  /** Probes embeddings once and logs how drift will be judged; call at start-up. */
  async announceDriftMode(): Promise<'embeddings' | 'model_only'> {
    const available = await this.similarity.probe();
    if (available) {
      this.options.logger.info(
        { event: 'moderator_drift_mode', mode: 'embeddings' },
        'Moderator: topic drift pre-tested with embeddings, confirmed by the model',
      );
      return 'embeddings';
    }
    this.options.logger.warn(
      { event: 'moderator_drift_mode', mode: 'model_only' },
      'Moderator: embeddings are unavailable for EMBEDDING_MODEL; topic drift is judged by the model alone at every check',
    );
    return 'model_only';
  }

  /**
   * The coordinator's hook after every round: runs a check when MODERATOR_CHECK_INTERVAL messages passed. True when
   * it may have changed the session: the ledger closed it or posted, or a check ran (it saves its state at least).
   */
  async afterRound(session: Session): Promise<boolean> {
    if (session.status !== 'active') return false;
    const review = (await this.options.ledgerCheck?.(session)) ?? 'nothing';
    if (review === 'closed') return true;
    const outcome = await this.maybeCheck(session);
    return review === 'invited' || outcome.action !== 'skipped' || outcome.modelCalled;
  }

  /** Same as `afterRound`, by id; resolves with what the check did (or `skipped`). */
  async afterMessage(sessionId: string): Promise<CheckOutcome> {
    const session = await this.options.host.getSession(sessionId);
    return session ? this.maybeCheck(session) : skipped();
  }

  /** `!focus [what]`: a check now that always ends in a redirect (towards what was named); returns what to tell the person. */
  async refocus(session: Session, focus: FocusRequest | null = null): Promise<string> {
    if (session.status !== 'active' || !session.plan) return 'There is no active discussion to refocus.';
    // A regular check under way would be shared (checks of a session run one at a time) and know nothing of this one.
    while (this.inFlight.has(session.id)) await this.inFlight.get(session.id)?.catch(() => undefined);
    const outcome = await this.exclusive(session.id, () => this.check(session, 'focus', focus));
    if (!outcome.posted) return 'The Moderator could not refocus the discussion just now.';
    return focus ? `The Moderator has asked everyone to focus on “${focus.text}”.` : 'The Moderator has asked everyone to refocus on the objectives.';
  }

  /** A limit was crossed: the session ends and the wrap-up follows. */
  async onLimitCrossed(sessionId: string, limit: string): Promise<void> {
    await this.options.host.endSession(sessionId, 'completed', `the ${limit} limit was reached`);
  }

  /** The wrap-up chain (Moderator -> Scribe -> TLDR) and the closing message; the session has already ended. */
  async wrapUp(session: Session, reason: string): Promise<void> {
    await this.runWrapUp(session, reason);
  }

  /** Like `wrapUp`, returning what it produced. */
  async runWrapUp(session: Session, reason: string): Promise<WrapUpResult> {
    const result = await runWrapUp(
      {
        host: this.options.host,
        chain: this.chain,
        prompts: this.options.prompts,
        settings: this.options.settings,
        logger: this.options.logger,
        voice: this.voice,
        ...(this.options.wrapUpNote ? { note: this.options.wrapUpNote } : {}),
      },
      session,
      reason,
    );
    if (result.quality !== null) {
      await this.options.host
        .saveModerationState(session.id, { ...session.moderationState, qualityScore: result.quality, lastVerdict: 'end' })
        .catch(() => undefined);
    }
    this.similarity.forget(session.id);
    this.checksSinceReview.delete(session.id);
    this.lastInvited.delete(session.id);
    return result;
  }

  private async maybeCheck(session: Session): Promise<CheckOutcome> {
    if (session.status !== 'active' || !session.plan) return skipped();
    const due = session.messageCount - session.moderationState.lastCheckAtMessage >= this.options.settings().checkInterval;
    if (!due || this.inFlight.has(session.id)) return skipped();
    return this.exclusive(session.id, () => this.check(session, 'interval'));
  }

  private async exclusive(sessionId: string, action: () => Promise<CheckOutcome>): Promise<CheckOutcome> {
    const running = this.inFlight.get(sessionId);
    if (running) return running;
    const promise = action().finally(() => this.inFlight.delete(sessionId));
    this.inFlight.set(sessionId, promise);
    return promise;
  }

  private async check(session: Session, trigger: CheckTrigger, focus: FocusRequest | null = null): Promise<CheckOutcome> {
    const plan = session.plan;
    if (!plan) return skipped();
    const { host } = this.options;
    const settings = this.options.settings();
    const messages = (await host.recentMessages(session.id, Math.max(settings.checkInterval, 6))).filter((message) => message.speaker.kind !== 'moderator');
    const limits = await host.limitsReport(session);
    // The pre-test looks only at what was said since the last check, so older on-topic talk cannot mask new drift.
    const fresh = messages.slice(-Math.max(1, session.messageCount - session.moderationState.lastCheckAtMessage));
    const similarity = await this.similarity.measure(session.id, plan, fresh);
    const imbalance = settings.balanceCheck ? findImbalance(limits.balance, host.participantNames(session)) : null;
    const facts: CheckFacts = { session, plan, trigger, messages, limits, similarity, imbalance, settings, focus };
    const reviews = (this.checksSinceReview.get(session.id) ?? 0) + 1;
    const suspectedDrift = similarity === null || similarity < settings.driftThreshold;
    const askModel = trigger === 'focus' || suspectedDrift || imbalance !== null || reviews >= PROGRESS_REVIEW_EVERY_CHECKS;
    const state: ModerationState = { ...session.moderationState, lastCheckAtMessage: session.messageCount };
    if (!askModel) {
      this.checksSinceReview.set(session.id, reviews);
      await host.saveModerationState(session.id, { ...state, lastVerdict: 'continue' });
      return { action: 'continue', modelCalled: false, similarity, posted: null };
    }
    this.checksSinceReview.set(session.id, 0);
    this.calls += 1;
    const answer = await askModerator(this.options.moderator, this.options.prompts, host.toolPorts(session), facts, () => this.stillActive(session.id));
    if (answer.error) this.options.logger.warn({ err: answer.error, sessionId: session.id }, 'Moderator check failed; using plain rules');
    return this.act(facts, answer, state);
  }

  private async act(facts: CheckFacts, answer: ModeratorAnswer, state: ModerationState): Promise<CheckOutcome> {
    const { host } = this.options;
    const { session, plan, settings } = facts;
    const verdict = answer.verdict;
    const outcome = (action: CheckOutcome['action'], posted: string | null): CheckOutcome => ({
      action,
      modelCalled: true,
      similarity: facts.similarity,
      posted,
    });
    const next: ModerationState = { ...state, lastVerdict: verdict?.action ?? 'continue', ...(verdict ? { qualityScore: verdict.quality } : {}) };

    if (verdict?.objectivesMet) {
      await host.saveModerationState(session.id, next);
      await host.endSession(session.id, 'completed', 'the objectives of the plan were met');
      return outcome('end', null);
    }
    // A blocked answer still leaves the embedding's suspicion: redirect with the plain message.
    const drifting = verdict ? verdict.drifting : answer.blockedByGuardrail && facts.similarity !== null && facts.similarity < settings.driftThreshold;
    if (drifting && state.driftWarnings >= settings.maxDriftWarnings) {
      await host.saveModerationState(session.id, next);
      await host.endSession(session.id, 'completed', `the discussion kept drifting from the objectives after ${settings.maxDriftWarnings} reminders`);
      return outcome('end', null);
    }
    if (answer.endRequested) {
      await host.saveModerationState(session.id, next);
      await host.endSession(session.id, 'completed', answer.endRequested);
      return outcome('end', null);
    }
    // Stop gate: a check that was in flight when the session ended posts nothing (only the closing follows).
    if (!(await this.stillActive(session.id))) return outcome('skipped', null);
    if (drifting || facts.trigger === 'focus') {
      const message = verdict && verdict.message.trim() !== '' && verdict.action === 'redirect' ? verdict.message : fallbackRedirect(plan, facts.focus);
      await host.saveModerationState(session.id, { ...next, driftWarnings: state.driftWarnings + (drifting ? 1 : 0), lastVerdict: 'redirect' });
      // A Moderator that already posted its redirect during the check is not asked twice.
      const spoken = answer.posted ?? (await this.voice.say(session, message, 'redirect', { ownTrace: true }))?.content ?? null;
      return outcome(spoken ? 'redirect' : 'skipped', spoken);
    }
    await host.saveModerationState(session.id, next);
    return this.balance(facts, verdict, outcome);
  }

  /**
   * A check can take a model call's time; `!stop` (or any end) may land meanwhile. Stop means stop: after it,
   * nothing but the closing is posted, so every post re-reads the status first.
   */
  private async stillActive(sessionId: string): Promise<boolean> {
    return (await this.options.host.getSession(sessionId))?.status === 'active';
  }

  /** An invite or hold the model chose on its own, for a participant who is taking part. */
  private modelNamedImbalance(session: Session, verdict: ModerationVerdict | null): BalanceFinding {
    if (!verdict || (verdict.action !== 'invite' && verdict.action !== 'hold') || verdict.message.trim() === '') return null;
    const name = this.options.host.participantNames(session).find((candidate) => candidate.toLowerCase() === verdict.target.toLowerCase());
    if (!name) return null;
    return verdict.action === 'invite' ? { kind: 'quiet', name, messages: 0 } : { kind: 'dominant', name, share: 0 };
  }

  private async balance(
    facts: CheckFacts,
    verdict: ModerationVerdict | null,
    outcome: (action: CheckOutcome['action'], posted: string | null) => CheckOutcome,
  ): Promise<CheckOutcome> {
    const { host } = this.options;
    const { session, plan } = facts;
    const imbalance = facts.imbalance ?? (facts.settings.balanceCheck ? this.modelNamedImbalance(session, verdict) : null);
    if (!imbalance) return outcome(verdict?.action === 'invite' || verdict?.action === 'hold' ? 'continue' : (verdict?.action ?? 'continue'), null);
    const key = `${imbalance.kind}:${imbalance.name}:${Math.floor(session.messageCount / (facts.settings.checkInterval * 3))}`;
    if (this.lastInvited.get(session.id) === key) return outcome('continue', null);
    this.lastInvited.set(session.id, key);
    const action = imbalance.kind === 'quiet' ? 'invite' : 'hold';
    const modelWorded = verdict && verdict.action === action && verdict.target.toLowerCase() === imbalance.name.toLowerCase() && verdict.message.trim() !== '';
    const message = modelWorded ? verdict.message : action === 'invite' ? fallbackInvite(imbalance.name, plan) : fallbackHold(imbalance.name);
    const spoken = await this.voice.say(session, message, action, { ownTrace: true });
    if (!spoken) return outcome('skipped', null);
    if (action === 'invite') host.inviteSpeaker?.(session.id, imbalance.name);
    else host.holdSpeaker?.(session.id, imbalance.name);
    return outcome(action, spoken.content);
  }
}

function skipped(): CheckOutcome {
  return { action: 'skipped', modelCalled: false, similarity: null, posted: null };
}
