/**
 * The idea ledger of every session: one extraction pass per Scribe interval (a durable job), the `!ideas`
 * reply, the ledger's sections in the record and the TLDR, the console panel, the roles against sycophancy,
 * and the Moderator's convergence close and dissent invitation.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { IdeaExtractorAgent } from '../../agents/ideas/idea-extractor-agent.ts';
import type { ModeratorAgent } from '../../agents/moderator/moderator-agent.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import { PLANNING_STATUSES, type Session } from '../../core/domain.ts';
import type { LedgerReview } from '../../core/service-ports.ts';
import type { JobHandler, JobOutcome } from '../jobs/job-types.ts';
import { PendingDueTimes } from '../jobs/pending-due-times.ts';
import { closeIfConverged, inviteDissent, type LedgerRoom, type ModeratorLedgerDependencies } from './convergence-close.ts';
import { ideasReply, withLedgerSections, type MessageLinks } from './ledger-markdown.ts';
import { ledgerFigures, type LedgerFigures } from './ledger-metrics.ts';
import { runLedgerPass, type LedgerPassDependencies } from './ledger-pass.ts';
import { runExtraction } from './ledger-runs.ts';
import type { SessionLedger } from '../../core/idea-ledger.ts';
import { describeRoles, roleMap, rotationOf, roundOf, roundsUntilRotation, type SessionRole } from './session-roles.ts';

/** The job kind of a ledger pass. */
export const IDEA_LEDGER_JOB = 'idea_ledger';

/** The ledger's knobs (env: IDEAS_*), read per use. */
export interface IdeaLedgerSettings {
  /** Seconds between passes (the Scribe interval). */
  intervalSeconds: number;
  /** Rounds without a new idea or objection that close a session as converged (0: never). */
  convergenceRounds: number;
  /** Cosine similarity at or above which two ideas are the same. */
  duplicateSimilarity: number;
  /** Agreement ratio at or above which the Moderator invites dissent. */
  agreementThreshold: number;
  /** Rounds between role rotations (0: no roles). */
  roleRotationRounds: number;
}

/** Sessions whose last review this process remembers (a forgotten one is read once more). */
const REVIEWS_REMEMBERED = 1024;

/** What the ledger service needs. */
export interface IdeaLedgerDependencies extends Omit<LedgerPassDependencies, 'extract' | 'similarity'> {
  jobs: Pick<JobsRepository, 'enqueueOnce' | 'expedite'>;
  logger: Logger;
  prompts: PromptLibrary;
  extractor: IdeaExtractorAgent;
  moderator: ModeratorAgent;
  room: LedgerRoom;
  settings: () => IdeaLedgerSettings;
  nudge?: () => void;
  /** The roles a session's preset rotates (null: all of them). */
  roleSet?: (session: Session) => readonly SessionRole['name'][] | null | undefined;
}

/** What the console's ideas panel shows. */
export interface IdeaPanel extends SessionLedger {
  figures: LedgerFigures;
  roles: { name: string; role: string }[];
}

/** The ledger service. */
export class IdeaLedgerService {
  private readonly pass: LedgerPassDependencies;
  private readonly inFlight = new Map<string, Promise<LedgerReview>>();
  /** Per session: what its last complete review saw (`reviewKey`) and the pass it last invited dissent at. */
  private readonly reviews = new LRUCache<string, { seen: string | null; dissentAt: number | null }>({ max: REVIEWS_REMEMBERED });
  /** When each session's pending pass is due, as the last insert answered. */
  private readonly pendingPasses = new PendingDueTimes();

  constructor(private readonly deps: IdeaLedgerDependencies) {
    this.pass = {
      ...deps,
      extract: (sessionId, input, signal) => runExtraction(deps.extractor, sessionId, input, signal),
      similarity: () => deps.settings().duplicateSimilarity,
    };
  }

  /** Registers the `idea_ledger` job handler. */
  registerJobs(registry: { register(kind: string, handler: JobHandler): void }): void {
    registry.register(IDEA_LEDGER_JOB, (job, signal) => this.handle(job, signal));
  }

  /**
   * After a stored message: a pass one Scribe interval from now (one pending per session). While the pending pass
   * is still ahead, the insert would change nothing (it covers the message), so it is not sent: one statement per
   * interval instead of two per round. The insert answers when the pending pass is due, whoever queued it, so two
   * messages stored at once (a person's and a round's) cannot leave this process not knowing. A pending pass due
   * later than one interval from now (the interval was just shortened with `!config`) is moved in, unless it is
   * waiting out a failure's back-off.
   */
  async onMessage(sessionId: string): Promise<void> {
    const now = this.deps.clock.now();
    const runAt = new Date(now.getTime() + this.deps.settings().intervalSeconds * 1000);
    const known = this.pendingPasses.current(sessionId);
    if (this.pendingPasses.covers(known, now, runAt)) return;
    let dueAt = await this.deps.jobs.enqueueOnce({ kind: IDEA_LEDGER_JOB, payload: { sessionId }, runAt, dedupeKey: sessionId, sessionId }, now);
    if (dueAt && dueAt > runAt) {
      await this.deps.jobs.expedite(IDEA_LEDGER_JOB, sessionId, runAt, now, { skipRetrying: true });
      // A pass in back-off stays later; remembering this due time still spares the statements until then.
      dueAt = runAt;
    }
    this.pendingPasses.learn(sessionId, known, now, dueAt);
  }

  /** A last pass before the wrap-up, so the final record carries the whole ledger. Never throws. */
  async finalPass(sessionId: string): Promise<void> {
    await runLedgerPass(this.pass, sessionId, new AbortController().signal).catch((error: unknown) =>
      this.deps.logger.warn({ sessionId, err: error instanceof Error ? error.message : String(error) }, 'final idea ledger pass failed'),
    );
  }

  /**
   * The Moderator's hook after a round (and after each pass): closes a converged session, or invites dissent
   * into a room that only agrees. Says which it did.
   */
  async afterRound(session: Session): Promise<LedgerReview> {
    const running = this.inFlight.get(session.id);
    if (running) return running;
    const work = this.review(session).finally(() => this.inFlight.delete(session.id));
    this.inFlight.set(session.id, work);
    return work;
  }

  /** The `!ideas` reply. */
  async describe(session: Session): Promise<string> {
    if (PLANNING_STATUSES.includes(session.status)) return 'No ideas yet — the discussion starts once the plan is approved.';
    const ledger = await this.deps.repository.ledger(session.id);
    const roles = this.roles(session);
    return ideasReply(
      ledger,
      ledgerFigures(ledger.ideas, ledger.passes, session.endedAt),
      roles.size > 0 ? describeRoles(roles) : null,
      await this.links(session.id),
      // An ended session's ledger is read no more: its reply says so rather than when the next pass comes.
      session.endedAt === null ? this.deps.settings().intervalSeconds : null,
    );
  }

  /** A record or TLDR with the ledger's sections (re)placed at its end; unchanged while the ledger is empty. */
  async decorate(sessionId: string, kind: 'record' | 'tldr', markdown: string): Promise<string> {
    const ledger = await this.deps.repository.ledger(sessionId);
    if (ledger.passes.length === 0) return markdown;
    return withLedgerSections(markdown, ledger, await this.links(sessionId), kind);
  }

  /** The console panel's data. */
  async panel(session: Session): Promise<IdeaPanel> {
    const ledger = await this.deps.repository.ledger(session.id);
    const roles = [...this.roles(session).entries()].map(([name, role]) => ({ name, role: role.name }));
    return {
      ...ledger,
      ideas: ledger.ideas.map((idea) => ({ ...idea, embedding: null })),
      notes: ledger.notes.map((note) => ({ ...note, embedding: null })),
      figures: ledgerFigures(ledger.ideas, ledger.passes, session.endedAt),
      roles,
    };
  }

  /** The role paragraph of a participant's instructions, or null without roles. */
  roleNote(session: Session, participant: string): string | null {
    const rotateEvery = this.deps.settings().roleRotationRounds;
    const roles = this.roles(session);
    const own = roles.get(participant);
    if (!own) return null;
    const round = roundOf(session.messageCount, roles.size);
    const others = [...roles.entries()]
      .filter(([name]) => name !== participant)
      .map(([name, role]) => `${name} ${role.name}`)
      .join(', ');
    return this.deps.prompts.render('participant-role', {
      role: own.name,
      duty: own.duty,
      rotateEvery,
      roundsLeft: roundsUntilRotation(round, rotateEvery),
      others,
    });
  }

  private roles(session: Session): Map<string, SessionRole> {
    const names = this.deps.room.participants(session);
    const rotateEvery = this.deps.settings().roleRotationRounds;
    const rotation = rotationOf(this.deps.roleSet?.(session));
    return rotateEvery > 0 && names.length >= 2 ? roleMap(names, roundOf(session.messageCount, names.length), rotateEvery, rotation) : new Map();
  }

  private async handle(job: ClaimedJob, signal: AbortSignal): Promise<JobOutcome> {
    const sessionId = String(job.payload.sessionId);
    this.pendingPasses.started(sessionId, this.deps.clock.now());
    const merged = await runLedgerPass(this.pass, sessionId, signal);
    if (merged) {
      const session = await this.deps.sessions.findById(sessionId);
      if (session) await this.afterRound(session);
    }
    return { status: 'done' };
  }

  /**
   * `session` is fresh: the round's update returned it, or the pass's job read it just before. What a review decides
   * follows from the ledger and the settings alone, and the ledger changes only with a pass: while the session's pass
   * number and the settings are those of the last complete review (or no pass ran yet), it would decide the same
   * again, so the ledger is not read.
   */
  private async review(session: Session): Promise<LedgerReview> {
    const known = this.reviews.get(session.id) ?? { seen: null, dissentAt: null };
    const key = this.reviewKey(session);
    if (session.ledgerPasses === 0 || known.seen === key) return 'nothing';
    const ledger = await this.deps.repository.ledger(session.id);
    const moderator = this.moderatorDependencies();
    if (await closeIfConverged(moderator, session, ledger)) return 'closed';
    const invitedAt = await inviteDissent(moderator, session, ledger, known.dissentAt);
    // A session that was not active decided nothing: its next review reads again.
    this.reviews.set(session.id, { seen: session.status === 'active' ? key : null, dissentAt: invitedAt ?? known.dissentAt });
    return invitedAt === null ? 'nothing' : 'invited';
  }

  private reviewKey(session: Session): string {
    const { convergenceRounds, agreementThreshold } = this.deps.settings();
    return `${session.ledgerPasses}:${convergenceRounds}:${agreementThreshold}`;
  }

  private moderatorDependencies(): ModeratorLedgerDependencies {
    const settings = this.deps.settings();
    return {
      room: this.deps.room,
      moderator: this.deps.moderator,
      prompts: this.deps.prompts,
      logger: this.deps.logger,
      convergenceRounds: settings.convergenceRounds,
      agreementThreshold: settings.agreementThreshold,
      rotateEvery: settings.roleRotationRounds,
    };
  }

  private async links(sessionId: string): Promise<MessageLinks> {
    const messages = await this.deps.messages.listForSession(sessionId);
    return new Map(messages.map((message) => [message.id, { url: message.externalUrl, number: message.number }]));
  }
}
