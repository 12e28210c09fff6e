import { withTrace } from '@openai/agents';
import type { Logger } from 'pino';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import { describeLimit, type LimitsService } from '../limits/limits-service.ts';
import type { RosterService } from '../sessions/roster-service.ts';
import type { DocumentationHooks, ModerationPort } from '../sessions/session-hooks.ts';
import { planRound, type RoundPlan } from './round-planning.ts';
import type { TurnOutcome, TurnRunner } from './turn-runner.ts';

/** Ends a session (implemented by the session lifecycle). */
export interface SessionEnder {
  end(sessionId: string, status: 'completed' | 'stopped', reason: string): Promise<void>;
}

/** What the coordinator needs. */
export interface CoordinatorOptions {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  roster: RosterService;
  turns: TurnRunner;
  limits: LimitsService;
  delivery: DeliveryService;
  moderation: ModerationPort;
  documentation: DocumentationHooks;
  ender: SessionEnder;
  settings: () => LimitsConfig;
  clock: Clock;
  logger: Logger;
}

interface Runtime {
  pendingHumans: ChatMessage[];
  wantAiRound: boolean;
  loop: Promise<void> | null;
  /** The running round's controller; a round takes a fresh one when it starts. */
  controller: AbortController | null;
  /** Set by `abort`: no round starts until new work (a person, a kick) arrives. */
  cancelled: boolean;
  /** Participants whose failure (or bench) was announced in this session (cleared when they answer again). */
  announcedFailures: Map<string, 'failed' | 'benched'>;
  /** The Moderator's hints for the next round: names to invite in, names to hold back. */
  invited: Set<string>;
  held: Set<string>;
}

/**
 * Decides who speaks (plain code, not a model) and runs the rounds of each session one at a time:
 * a person's message is answered by up to MAX_AI_RESPONSES_PER_TURN participants in parallel, then AI-to-AI
 * rounds follow until a limit, the loop guard, the Moderator, `!pause` or `!stop`.
 */
export class Coordinator {
  private readonly runtimes = new Map<string, Runtime>();

  constructor(private readonly options: CoordinatorOptions) {}

  /** A person spoke in an active session: answer them next, ahead of any queued AI round. */
  onHumanMessage(session: Session, message: ChatMessage): void {
    const runtime = this.runtime(session.id);
    runtime.cancelled = false;
    runtime.pendingHumans.push(message);
    this.ensureLoop(session.id);
  }

  /** Start (or continue) AI rounds: after approval, `!continue`, or a restart. */
  kick(sessionId: string): void {
    const runtime = this.runtime(sessionId);
    runtime.cancelled = false;
    runtime.wantAiRound = true;
    this.ensureLoop(sessionId);
  }

  /** The Moderator invited a quiet participant: it speaks in the next round. */
  invite(sessionId: string, name: string): void {
    this.runtime(sessionId).invited.add(name);
  }

  /** The Moderator asked a dominant participant to hold: it sits out the next round. */
  hold(sessionId: string, name: string): void {
    this.runtime(sessionId).held.add(name);
  }

  /** `!stop`/`!pause`/end: aborts in-flight model calls (keeping what was said) and drops queued rounds. */
  abort(sessionId: string): void {
    const runtime = this.runtimes.get(sessionId);
    if (!runtime) return;
    runtime.pendingHumans = [];
    runtime.wantAiRound = false;
    runtime.cancelled = true;
    runtime.controller?.abort(new Error('session stopped'));
  }

  /**
   * Shutdown: aborts every in-flight turn (what was already said is kept) and waits for the loops to end.
   * People left unanswered are answered after the restart (see `resumeSessions`).
   */
  async shutdown(): Promise<void> {
    for (const sessionId of this.runtimes.keys()) this.abort(sessionId);
    await this.idle();
  }

  /** Resolves when the session has no round running (tests and shutdown wait on it). */
  async idle(sessionId?: string): Promise<void> {
    const loops = sessionId ? [this.runtimes.get(sessionId)?.loop] : [...this.runtimes.values()].map((runtime) => runtime.loop);
    await Promise.allSettled(loops.filter((loop): loop is Promise<void> => loop !== null && loop !== undefined));
  }

  /** Sessions with a round in flight. */
  busySessions(): string[] {
    return [...this.runtimes.entries()].filter(([, runtime]) => runtime.loop !== null).map(([id]) => id);
  }

  private runtime(sessionId: string): Runtime {
    let runtime = this.runtimes.get(sessionId);
    if (!runtime) {
      runtime = { pendingHumans: [], wantAiRound: false, loop: null, controller: null, cancelled: false, announcedFailures: new Map(), invited: new Set(), held: new Set() };
      this.runtimes.set(sessionId, runtime);
    }
    return runtime;
  }

  private ensureLoop(sessionId: string): void {
    const runtime = this.runtime(sessionId);
    if (runtime.loop) return;
    runtime.loop = this.loop(sessionId, runtime)
      .catch((error: unknown) => this.options.logger.error({ err: error, session: sessionId }, 'coordinator loop failed'))
      .finally(() => {
        runtime.loop = null;
        if (runtime.pendingHumans.length > 0) this.ensureLoop(sessionId);
      });
  }

  private async loop(sessionId: string, runtime: Runtime): Promise<void> {
    for (;;) {
      const session = await this.options.sessions.findById(sessionId);
      if (!session || session.status !== 'active') return;
      const humans = runtime.pendingHumans.splice(0);
      if (humans.length === 0 && !runtime.wantAiRound) return;
      runtime.wantAiRound = false;
      if (!(await this.withinLimits(session))) return;
      if (humans.length === 0 && session.aiRoundsSinceHuman >= this.options.settings().maxAiRoundsWithoutHuman) {
        await this.options.delivery.post(session, { kind: 'system', name: 'Brainstorm' }, 'The participants are waiting for a person: say something, or `!continue` to let them go on.');
        return;
      }
      const history = await this.options.messages.listForSession(session.id);
      const round = planRound({
        session,
        participants: this.options.roster.active(session),
        history,
        humans,
        maxSpeakers: this.options.settings().maxAiResponsesPerTurn,
        batchWindowMs: this.options.settings().batchWindowSeconds * 1000,
        invited: [...runtime.invited],
        held: [...runtime.held],
      });
      runtime.invited.clear();
      runtime.held.clear();
      if (round.speakers.length === 0) return;
      await this.options.delivery.flushRoom(session).catch((error: unknown) => this.options.logger.warn({ err: error, session: session.id }, 'could not flush the room before a round'));
      // No await between this check and the round's start: an abort either comes before (no round) or
      // reaches the round's own controller.
      if (runtime.cancelled) return;
      const controller = new AbortController();
      runtime.controller = controller;
      const outcomes = await this.runRound(session, round, controller.signal, history);
      await this.announceFailures(session, round, outcomes, runtime);
      await this.options.sessions.update(session.id, { aiRoundsSinceHuman: humans.length > 0 ? 1 : session.aiRoundsSinceHuman + 1 }, this.options.clock.now());
      if (controller.signal.aborted) return;
      const answered = outcomes.some((outcome) => outcome.status === 'answered');
      await this.afterRound(session.id);
      if (answered) runtime.wantAiRound = true;
    }
  }

  private async runRound(session: Session, round: RoundPlan, signal: AbortSignal, history: ChatMessage[]): Promise<TurnOutcome[]> {
    const title = round.kind === 'human' ? `Turn: answering ${round.trigger}` : 'Turn: AI round';
    return withTrace(
      title,
      () =>
        Promise.all(
          round.speakers.map((speaker) => this.options.turns.run(session, speaker.participant, this.options.roster.all(), speaker.answering, signal, history)),
        ),
      { groupId: session.id, metadata: { sessionId: session.id, kind: round.kind } },
    );
  }

  /** One notice per participant when it first fails, one when it is benched, one when it is back; the others carry on. */
  private async announceFailures(session: Session, round: RoundPlan, outcomes: TurnOutcome[], runtime: Runtime): Promise<void> {
    const system = { kind: 'system', name: 'Brainstorm' } as const;
    for (const [index, outcome] of outcomes.entries()) {
      const participant = round.speakers[index]?.participant;
      if (!participant) continue;
      const announced = runtime.announcedFailures.get(participant.id);
      if (outcome.status === 'answered') {
        runtime.announcedFailures.delete(participant.id);
        if (announced === 'benched') await this.options.delivery.post(session, system, `${participant.name} is back: its model answers again.`);
      }
      if (outcome.status !== 'failed' || announced === 'benched') continue;
      const benched = !this.options.roster.active(session).some((entry) => entry.id === participant.id);
      if (announced === 'failed' && !benched) continue;
      runtime.announcedFailures.set(participant.id, benched ? 'benched' : 'failed');
      const note = benched
        ? `${participant.name} is benched for now: its model (${participant.model}) failed repeatedly. The others carry on; it rejoins when the model recovers.`
        : `${participant.name} could not answer this time (its model did not respond). The others carry on.`;
      await this.options.delivery.post(session, system, note);
    }
  }

  private async withinLimits(session: Session): Promise<boolean> {
    const exceeded = this.options.limits.exceeded(session);
    if (exceeded.length === 0) return true;
    const reason = exceeded.map(describeLimit).join(', ');
    await this.options.ender.end(session.id, 'completed', reason);
    return false;
  }

  private async afterRound(sessionId: string): Promise<void> {
    const session = await this.options.sessions.findById(sessionId);
    if (!session || session.status !== 'active') return;
    await this.options.documentation.onMessage(sessionId).catch((error: unknown) => this.options.logger.warn({ err: error }, 'documentation hook failed'));
    await this.options.moderation.afterRound(session).catch((error: unknown) => this.options.logger.warn({ err: error }, 'moderation check failed'));
    const after = await this.options.sessions.findById(sessionId);
    if (after && after.status === 'active') await this.withinLimits(after);
  }
}
