import type { Logger } from 'pino';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import { describeLimit, type LimitsService } from '../limits/limits-service.ts';
import type { RosterService } from '../sessions/roster-service.ts';
import type { EventBus } from '../../core/ports.ts';
import type { DocumentationHooks, HumanMessageHandover, ModerationPort, SessionEnder, TurnTaking } from '../../core/service-ports.ts';
import {
  afterPause,
  armedDeadlines,
  awaitRound,
  dropQueuedWork,
  forgetWhenDone,
  keepBeside,
  restoreRepeats,
  runningWork,
  runtimeOf,
  settleTurns,
  nextPeople,
  withOwed,
  pausedBeforeStart,
  sessionForRound,
  runsAgain,
  type LoopEnd,
  type Runtime,
} from './coordinator-runtime.ts';
import { isDatabaseUnreachable } from '../../core/database-unreachable.ts';
import { hooksBetweenRounds } from './between-rounds.ts';
import { StalledSessions } from './stalled-sessions.ts';
import { RoundNotices } from './round-notices.ts';
import { seatRound } from './round-seating.ts';
import { noteSeatedRound } from './read-ahead.ts';
import type { SpeakerHints } from './speaker-hints.ts';
import { TurnCut, type TurnDeadlines } from './turn-control.ts';
import { startRound } from './round-start.ts';
import { waitingNotice } from './turn-notices.ts';
import type { TurnRunner } from './turn-runner.ts';
import { RecentHistorySource, ROUND_HISTORY_WINDOW } from './recent-history.ts';

/** What the coordinator needs. */
export interface CoordinatorOptions {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  roster: RosterService;
  turns: Pick<TurnRunner, 'run'>;
  limits: LimitsService;
  delivery: Pick<DeliveryService, 'post' | 'flushRoom'>;
  moderation: ModerationPort;
  documentation: DocumentationHooks;
  ender: SessionEnder;
  /** The Moderator's invitations and holds for each session's next round. */
  hints: SpeakerHints;
  /** The lifecycle's announcements: an end cuts the session's turns. */
  events: Pick<EventBus, 'subscribe'>;
  settings: () => LimitsConfig;
  clock: Clock;
  logger: Logger;
  /** Each participant's deadlines for one answer (first token, whole answer); null for none. */
  deadlines: () => TurnDeadlines | null;
}

/**
 * Decides who speaks (plain code, not a model) and runs the rounds of each session: a person's message is answered
 * by up to MAX_AI_RESPONSES_PER_TURN participants in parallel, at once (an AI round's answers nobody saw yet yield
 * to it), then AI-to-AI rounds follow until a limit, the loop guard, the Moderator, `!pause` or `!stop`. Each turn
 * has its own deadlines; a stop cuts every turn and nothing but the closing follows.
 */
export class Coordinator implements TurnTaking {
  private readonly runtimes = new Map<string, Runtime>();
  /** Sessions whose rounds stopped on an unreachable database (their owner resumes them once it is back). */
  readonly stalled = new StalledSessions();
  private readonly history: RecentHistorySource;
  private readonly notices: RoundNotices;

  constructor(private readonly options: CoordinatorOptions) {
    this.history = new RecentHistorySource({ messages: options.messages, window: ROUND_HISTORY_WINDOW });
    this.notices = new RoundNotices(options);
    // An end cuts this process's turns wherever decided, a pause lets them finish; restartRoundsOnResume hears a resume.
    options.events.subscribe((event) => {
      if (event.type === 'session_paused') return this.pause(event.sessionId);
      if (event.type !== 'session_ended') return;
      this.abort(event.sessionId);
      options.hints.spend(event.sessionId);
      this.history.forget(event.sessionId);
      forgetWhenDone(this.runtimes, event.sessionId);
    });
  }

  /** A person spoke in an active session: answer them next, ahead of any queued AI round. */
  onHumanMessage(session: Session, message: ChatMessage, handover: HumanMessageHandover = {}): void {
    const runtime = this.runtime(session.id);
    runtime.cancelled = false;
    if (handover.folded) {
      runtime.folded.push(message);
      this.ensureLoop(session.id);
      return;
    }
    runtime.pendingHumans.push(message);
    // With no loop running, nothing of this process wrote the session since the count that returned this row.
    if (handover.counted && !runtime.loop) runtime.arrival = session;
    runtime.wake?.();
    this.ensureLoop(session.id);
  }

  /** The session was paused (here, or elsewhere): the answers being written finish; the loop reads it before a round. */
  pause(sessionId: string): void {
    const runtime = this.runtimes.get(sessionId);
    if (runtime) runtime.paused = true;
  }

  /** Start (or continue) AI rounds: after approval, `!continue`, or a restart. */
  kick(sessionId: string): void {
    const runtime = this.runtime(sessionId);
    runtime.cancelled = false;
    runtime.wantAiRound = true;
    // A loop still ending (it saw the session paused a moment ago) would not look again: the next one does.
    if (runtime.loop) runtime.rerun = true;
    this.ensureLoop(sessionId);
  }

  /**
   * Cuts every turn in flight and drops everything queued: `stopped` (`!stop`, the end) keeps what was shown, marked;
   * `handed_over` (this process lets the session go) takes its unfinished answers out, as the next owner has them said again.
   */
  abort(sessionId: string, reason: 'stopped' | 'handed_over' = 'stopped'): void {
    const runtime = this.runtimes.get(sessionId);
    if (!runtime) return;
    dropQueuedWork(runtime);
    runtime.cancelled = true;
    runtime.controller.abort(new TurnCut(reason));
    runtime.wake?.();
    // Handed over, the session is another process's now (or this one's again later, as after a restart).
    if (reason === 'handed_over') forgetWhenDone(this.runtimes, sessionId);
  }

  /**
   * Shutdown: hands every session over (its turns in flight cut, their unfinished answers taken out of the rooms) and
   * waits for the loops to end. Whoever resumes a session answers the people left unanswered (see `resumeSessions`).
   */
  async shutdown(): Promise<void> {
    for (const sessionId of this.runtimes.keys()) this.abort(sessionId, 'handed_over');
    await this.idle();
  }

  /** Resolves when the session has no round and no check running (tests, the wrap-up and shutdown wait on it). */
  async idle(sessionId?: string): Promise<void> {
    const runtimes = sessionId ? [this.runtimes.get(sessionId)] : [...this.runtimes.values()];
    await Promise.allSettled(runtimes.flatMap(runningWork));
  }

  /**
   * Clock sleeps armed as deadlines of the turns in flight. Test support moves a manual clock only for other
   * sleepers, so a deadline passes in a test only when the test moves time itself.
   */
  get deadlineSleepers(): number {
    return armedDeadlines(this.runtimes.values());
  }

  /** Sessions with a round in flight. */
  busySessions(): string[] {
    return [...this.runtimes.entries()].filter(([, runtime]) => runtime.loop !== null).map(([id]) => id);
  }

  /**
   * The database went away mid-round (see StalledSessions). The round's answers still streaming are cut as a handover
   * cuts them, out of the room: the session is resumed from the store, and one stored meanwhile would be said twice.
   */
  private stall(sessionId: string, runtime: Runtime): void {
    dropQueuedWork(runtime);
    runtime.controller.abort(new TurnCut('handed_over'));
    this.stalled.add(sessionId, this.options.clock.now());
    this.options.logger.warn({ session: sessionId }, 'the database became unreachable mid-round: the session resumes once it is back');
  }

  private runtime(sessionId: string): Runtime {
    return runtimeOf(this.runtimes, sessionId);
  }

  private ensureLoop(sessionId: string): void {
    const runtime = this.runtime(sessionId);
    if (runtime.loop) return;
    if (runtime.controller.signal.aborted) runtime.controller = new AbortController();
    let end: LoopEnd = 'idle';
    runtime.loop = this.loop(sessionId, runtime)
      .then((result) => void (end = result))
      .catch((error: unknown) => {
        end = 'failed';
        if (isDatabaseUnreachable(error)) this.stall(sessionId, runtime);
        else this.options.logger.error({ err: error, session: sessionId }, 'coordinator loop failed');
      })
      .finally(() => settleTurns(runtime))
      .finally(() => {
        runtime.loop = null;
        const again = runsAgain(runtime, end);
        runtime.rerun = false;
        if (again === 'now') this.ensureLoop(sessionId);
        // A loop that failed would fail again at once (a bug, a closed pool): it is tried again after a pause, not spun.
        if (again === 'later') afterPause(this.options.clock, runtime, () => this.ensureLoop(sessionId));
      });
  }

  /** Runs rounds while there is work; `inactive` when it stopped because the session is not active (paused, ended). */
  private async loop(sessionId: string, runtime: Runtime): Promise<Exclude<LoopEnd, 'failed'>> {
    // The session as the last round left it, read after its hooks: an AI round that follows needs no second read.
    // A person's message changed it since (its counts), so then it is read again, unless the count handed its row over
    // to a loop that was not running.
    let known: Session | null = null;
    // The guard stopping right after the participants answered a person is the room waiting as it should: no notice
    // then, or a room with a low limit would read one after every answer.
    let answeredPerson = false;
    for (;;) {
      const session = await sessionForRound(runtime, known, () => this.options.sessions.findById(sessionId));
      known = null;
      if (!session || session.status !== 'active') return 'inactive';
      if (runtime.cancelled) return 'idle';
      restoreRepeats(runtime, session);
      const people = nextPeople(runtime, this.options.roster.active(session), this.options.settings().maxAiResponsesPerTurn);
      const { humans, owed } = people;
      if (humans.length === 0 && !runtime.wantAiRound) return 'idle';
      if (!owed) runtime.wantAiRound = false;
      // People a round read before they were handed here were answered by it: the room is not waiting for them.
      if (people.answeredAhead) answeredPerson = true;
      if (!(await this.withinLimits(session, runtime))) return 'idle';
      if (humans.length === 0 && session.aiRoundsSinceHuman >= this.options.settings().maxAiRoundsWithoutHuman) {
        if (!answeredPerson) await this.notices.post(session, runtime, waitingNotice(this.options.settings().maxAiRoundsWithoutHuman));
        return 'idle';
      }
      answeredPerson = humans.length > 0;
      // An AI round answers what was said, so it waits for the answers still being written; so do the owed answers.
      if (humans.length === 0 || owed) await settleTurns(runtime);
      const round = await seatRound({ ...this.options, history: this.history }, session, runtime, humans, people.only);
      if (!round) {
        // Every seat is taken by answers still being written: once they land, the person is answered.
        if (humans.length > 0 && !owed && runtime.turns.size > 0 && !runtime.cancelled) {
          runtime.pendingHumans.unshift(...humans);
          await settleTurns(runtime);
          continue;
        }
        return 'idle';
      }
      await this.options.delivery
        .flushRoom(session)
        .catch((error: unknown) => this.options.logger.warn({ err: error, session: session.id }, 'could not flush the room before a round'));
      // Paused while the round was being seated (after the answers still being written, say): it does not start.
      if (await pausedBeforeStart(runtime, people, () => this.options.sessions.findById(sessionId))) return 'inactive';
      // No await between this check and the turns' start: an abort either comes before (no round) or reaches them.
      if (runtime.cancelled) return 'idle';
      // A round that read a person's message answers them (see read-ahead.ts): the guard stopping after it is the room waiting as it should.
      if (noteSeatedRound(runtime, session, round.history.messages, humans, round.speakers) > 0) answeredPerson = true;
      // Who was still writing when a person spoke answers them next, before any AI round: nobody is left out of the reply.
      if (humans.length > 0 && round.owing.size > 0) runtime.owed = withOwed(runtime.owed, humans, round.owing);
      const turns = startRound(this.options, this.notices, { session, round, runtime });
      if ((await awaitRound(round.kind, turns, runtime)) === 'preempted') {
        // A person's round goes on beside the newcomer's: the room hears of its repeats once its answers are in.
        const outcomes = Promise.all(turns.map((turn) => turn.done));
        if (round.kind === 'human')
          keepBeside(
            runtime,
            outcomes
              .then((done) => this.notices.afterRound(session, { ...round, humans }, done, runtime))
              .catch((error: unknown) => this.options.logger.warn({ err: error, session: session.id }, 'could not note a round that went on beside another')),
          );
        continue;
      }
      const outcomes = await Promise.all(turns.map((turn) => turn.done));
      // A round cut by a stop or a shutdown did not happen for the loop guard: the process that takes the session
      // over lets the participants who were cut answer in the next round (a person got one answer of three, say).
      if (runtime.controller.signal.aborted) return 'idle';
      const counted = await this.options.sessions.update(
        session.id,
        { aiRoundsSinceHuman: answeredPerson ? 1 : session.aiRoundsSinceHuman + 1 },
        this.options.clock.now(),
      );
      await this.notices.afterRound(session, { ...round, humans }, outcomes, runtime);
      known = await this.afterRound(session.id, runtime, counted);
      if (outcomes.some((outcome) => outcome.status === 'answered')) runtime.wantAiRound = true;
    }
  }

  private async withinLimits(session: Session, runtime: Runtime): Promise<boolean> {
    const exceeded = this.options.limits.exceeded(session);
    if (exceeded.length === 0) return true;
    // The last answers in flight land first; then the session ends on what they used.
    await settleTurns(runtime);
    await this.options.ender.end(session.id, 'completed', exceeded.map(describeLimit).join(', '));
    return false;
  }

  /** The hooks after a round (see hooksBetweenRounds); the session while it goes on, null to read it again or stop. */
  private async afterRound(sessionId: string, runtime: Runtime, current: Session | null): Promise<Session | null> {
    const after = await hooksBetweenRounds(this.options, sessionId, runtime, current);
    // A person who spoke during the check is answered next: the loop reads the session again.
    if (after === 'person' || after === null) return null;
    return (await this.withinLimits(after, runtime)) ? after : null;
  }
}
