/** The coordinator's per-session state in this process: queued people, the loop, the turns in flight. */
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { TurnControl } from './turn-control.ts';
import type { TurnOutcome } from './turn-outcome.ts';
import { anyUnread, peopleToAnswer, type PeopleToAnswer, type ReadAhead } from './read-ahead.ts';

/** A turn in flight: of the running round, or left over from a round a person preempted. */
export interface InFlightTurn {
  participantId: string;
  control: TurnControl;
  done: Promise<TurnOutcome>;
}

/** A session's coordination state. */
export interface Runtime {
  pendingHumans: ChatMessage[];
  /** People's messages folded into the next round (they wrote faster than the room answers), until a round reads them. */
  folded: ChatMessage[];
  /** The newest message id a seated round read: a folded message newer than it was not read by any round. */
  seenUpTo: number;
  /** People's messages rounds read before they were handed here, with who read them (see read-ahead.ts). */
  readAhead: ReadAhead;
  wantAiRound: boolean;
  loop: Promise<void> | null;
  /** A kick came while the loop was ending: the next loop starts as soon as it has. */
  rerun: boolean;
  /** The session's controller while its loop runs: a stop aborts it, and with it every turn in flight. */
  controller: AbortController;
  /** Set by `abort`: no round starts until new work (a person, a kick) arrives. */
  cancelled: boolean;
  /** Paused (here or elsewhere) since the loop read the session: it reads it again before it starts a round. */
  paused: boolean;
  /** Participants whose failure, slowness or bench was announced (cleared, with a "back" notice, when they answer). */
  announcedFailures: Map<string, 'failed' | 'benched'>;
  /** Participants the room was told repeat themselves (cleared when they answer again). */
  announcedRepeats: Set<string>;
  /**
   * Participants sitting out the AI rounds: their last answer was withheld as a repeat. A person's next round asks
   * them again; until then each AI round would cost two calls for nothing.
   */
  resting: ReadonlySet<string>;
  /** Whether `resting` and `announcedRepeats` were read back from the session (once, when this process first runs it). */
  repeatsRestored: boolean;
  /**
   * Work a person's round did not wait for, going on beside it: a check between rounds (see `unlessPersonSpeaks`), and
   * what follows the answers to someone who spoke before them (see `awaitRound`).
   */
  sideWork: Set<Promise<unknown>>;
  /** Turns in flight, of this round or of one a person preempted. */
  turns: Set<InFlightTurn>;
  /** Wakes a loop waiting on an AI round when a person speaks. */
  wake: (() => void) | null;
  /** The session as a person's counted message left it, handed over while no loop ran: the loop that starts takes it. */
  arrival: Session | null;
  /** People's messages still owed an answer by participants who were mid-answer when they spoke (their ids). */
  owed: { humans: ChatMessage[]; participantIds: ReadonlySet<string> } | null;
}

/** A session's state before its first round. */
export function newRuntime(): Runtime {
  return {
    pendingHumans: [],
    folded: [],
    seenUpTo: 0,
    readAhead: new Map(),
    owed: null,
    wantAiRound: false,
    loop: null,
    rerun: false,
    controller: new AbortController(),
    cancelled: false,
    paused: false,
    announcedFailures: new Map(),
    announcedRepeats: new Set(),
    resting: new Set(),
    repeatsRestored: false,
    sideWork: new Set(),
    turns: new Set(),
    wake: null,
    arrival: null,
  };
}

/** Takes over who rests and who was announced from the session as the process that ran it last left them. */
export function restoreRepeats(runtime: Runtime, session: Session): void {
  if (runtime.repeatsRestored) return;
  runtime.repeatsRestored = true;
  // Before its first round here, this process has nothing of its own to keep.
  runtime.resting = new Set(session.repeats?.resting ?? []);
  runtime.announcedRepeats = new Set(session.repeats?.announced ?? []);
}

/** The session's runtime in `runtimes`, made on first use. */
export function runtimeOf(runtimes: Map<string, Runtime>, sessionId: string): Runtime {
  let runtime = runtimes.get(sessionId);
  if (!runtime) {
    runtime = newRuntime();
    runtimes.set(sessionId, runtime);
  }
  return runtime;
}

/** Clock sleeps armed as deadlines of every turn in flight of `runtimes`. */
export function armedDeadlines(runtimes: Iterable<Runtime>): number {
  let count = 0;
  for (const runtime of runtimes) for (const turn of runtime.turns) count += turn.control.armedDeadlines;
  return count;
}

/**
 * Waits for a round. A person speaking meanwhile is answered at once by whoever is free. An AI round's answers nobody
 * has seen yet are dropped for them, the ones already streaming finish on their own; a person's round goes on, its
 * participants still writing answer the newcomer once they are done (`owed`).
 */
export async function awaitRound(kind: 'human' | 'ai', turns: InFlightTurn[], runtime: Runtime): Promise<'finished' | 'preempted'> {
  const finished = Promise.all(turns.map((turn) => turn.done)).then(() => 'finished' as const);
  if ((await unlessPersonArrives(runtime, finished)) === 'finished' || runtime.controller.signal.aborted) return 'finished';
  if (kind === 'ai') for (const turn of turns) if (!turn.control.visible) turn.control.cut('preempted');
  return 'preempted';
}

/** `work`'s result, or `person` as soon as a person is waiting (already, or when `onHumanMessage` wakes the loop). */
async function unlessPersonArrives<T>(runtime: Runtime, work: Promise<T>): Promise<T | 'person'> {
  const arrival = new Promise<'person'>((resolve) => {
    // A person whose message the round in flight read already is answered by it: no reason to cut it short.
    runtime.wake = () => {
      if (anyUnread(runtime.readAhead, runtime.pendingHumans)) resolve('person');
    };
    if (anyUnread(runtime.readAhead, runtime.pendingHumans)) resolve('person');
  });
  try {
    return await Promise.race([work, arrival]);
  } finally {
    runtime.wake = null;
  }
}

/**
 * Keeps `work` in `runtime.sideWork` until it ends, so that `idle` waits for it. Its failure is its own to handle: the
 * bookkeeping here must not turn it into an unhandled rejection (a round's notice failed as the database went away).
 */
export function keepBeside(runtime: Runtime, work: Promise<unknown>): void {
  runtime.sideWork.add(work);
  work.then(
    () => runtime.sideWork.delete(work),
    () => runtime.sideWork.delete(work),
  );
}

/**
 * The answers owed once a person's round left `owing` still writing: added to those owed before (someone else spoke
 * meanwhile), never in their place, so nobody is left out of a reply.
 */
export function withOwed(owed: Runtime['owed'], humans: ChatMessage[], owing: ReadonlySet<string>): NonNullable<Runtime['owed']> {
  if (!owed) return { humans, participantIds: owing };
  const known = new Set(owed.humans.map((message) => message.id));
  return { humans: [...owed.humans, ...humans.filter((message) => !known.has(message.id))], participantIds: new Set([...owed.participantIds, ...owing]) };
}

/**
 * `work` (which handles its own failure), unless a person speaks first: then `person`, and `work` goes on beside their
 * round, kept in `runtime.sideWork` until it ends. A check between rounds (the Moderator's, which may ask its model for
 * seconds) never keeps a person waiting for their answers.
 */
export async function unlessPersonSpeaks<T>(runtime: Runtime, work: Promise<T>): Promise<T | 'person'> {
  const first = await unlessPersonArrives(runtime, work);
  if (first === 'person') keepBeside(runtime, work);
  return first;
}

/** What the session still has running: its loop and the work that went on beside a person's round. */
export function runningWork(runtime: Runtime | undefined): Promise<unknown>[] {
  if (!runtime) return [];
  return [...(runtime.loop ? [runtime.loop] : []), ...runtime.sideWork];
}

/**
 * Drops the session's runtime from `runtimes` once the work its cut left has ended, unless the session started again
 * here meanwhile (a person's message, a kick): an ended or handed-over session's runtime was kept for the life of the
 * process, a few KB per session ever run.
 */
export function forgetWhenDone(runtimes: Map<string, Runtime>, sessionId: string): void {
  const runtime = runtimes.get(sessionId);
  const forget = (): void => {
    if (runtimes.get(sessionId) !== runtime || !runtime?.cancelled) return;
    const work = runningWork(runtime);
    if (work.length === 0) runtimes.delete(sessionId);
    else void Promise.allSettled(work).then(forget);
  };
  forget();
}

/** Waits until no turn of the session is in flight. */
export async function settleTurns(runtime: Runtime): Promise<void> {
  while (runtime.turns.size > 0) await Promise.allSettled([...runtime.turns].map((turn) => turn.done));
}

/**
 * The folded messages no seated round has read yet (taken out of `runtime`; those read already are dropped, their notes
 * spent). One newer than everything a round read is unread. An older one is unread unless a round noted it: ids are
 * given at insert, not at commit, so a message another process stored at the same moment can commit after a newer one
 * that a round read, and dropping it by its id alone left that person unanswered.
 */
export function takeUnreadFolded(runtime: Runtime): ChatMessage[] {
  return runtime.folded.splice(0).filter((message) => message.id > runtime.seenUpTo || !runtime.readAhead.delete(message.id));
}

/**
 * The people the next round answers. Those owed answers by the participants who were mid-answer when they spoke come
 * first, before any AI round, answered by those participants (unless someone spoke since). Otherwise the people queued
 * (and the folded ones no round read), taken out of `runtime`, less what rounds read ahead (see `peopleToAnswer`;
 * `participants` are those a round may seat, `maxSpeakers` how many it seats at most).
 */
export function nextPeople(runtime: Runtime, participants: readonly { id: string }[], maxSpeakers: number): PeopleToAnswer & { owed: boolean } {
  const owed = runtime.pendingHumans.length === 0 ? runtime.owed : null;
  if (owed) {
    runtime.owed = null;
    return { humans: owed.humans, only: owed.participantIds, owed: true };
  }
  const taken = [...runtime.pendingHumans.splice(0), ...takeUnreadFolded(runtime)];
  const participantIds = participants.map((participant) => participant.id);
  return { ...peopleToAnswer(runtime.readAhead, taken, participantIds, maxSpeakers), owed: false };
}

/**
 * The session the loop's next round is planned on: as the last round left it (`known`), unless a person spoke since
 * or a pause came (see `Runtime.paused`); else as a person's count handed it over, or read again.
 */
export async function sessionForRound(runtime: Runtime, known: Session | null, read: () => Promise<Session | null>): Promise<Session | null> {
  const arrival = runtime.arrival;
  runtime.arrival = null;
  const stale = runtime.paused;
  runtime.paused = false;
  if (!stale && known && runtime.pendingHumans.length === 0) return known;
  return (!stale && arrival) || read();
}

/**
 * Whether a pause came while a round for `people` was being seated and the session is not active now (read again to
 * know). Then the round does not start, and its people are put back: answered after `!continue` (an AI round is wanted
 * again then), as if it had not been seated.
 */
export async function pausedBeforeStart(runtime: Runtime, people: PeopleToAnswer & { owed: boolean }, read: () => Promise<Session | null>): Promise<boolean> {
  if (!runtime.paused) return false;
  runtime.paused = false;
  if ((await read())?.status === 'active') return false;
  putBack(runtime, people);
  return true;
}

/** Puts the people of a round that did not start back where `nextPeople` took them from. */
function putBack(runtime: Runtime, people: PeopleToAnswer & { owed: boolean }): void {
  const { humans, only, owed } = people;
  if (humans.length === 0) runtime.wantAiRound = true;
  else if (owed) runtime.owed = withOwed(runtime.owed, humans, only ?? new Set());
  else runtime.pendingHumans.unshift(...humans);
}

/** How a session's loop ended: the session not active (paused, ended), no work left, or an error. */
export type LoopEnd = 'inactive' | 'idle' | 'failed';

/**
 * Whether a loop that ended runs again: a kick that came as it ended, or people queued meanwhile. Not while the session
 * is paused (a loop would end at once, and start again, for as long as the pause lasts: `!continue` kicks it), nor
 * after an abort (nothing it left is to be run); after a failure, not at once.
 */
export function runsAgain(runtime: Runtime, end: LoopEnd): 'now' | 'later' | 'no' {
  const queued = runtime.pendingHumans.length > 0 || runtime.folded.length > 0;
  if (!runtime.rerun && (end === 'inactive' || runtime.cancelled || !queued)) return 'no';
  return end === 'failed' ? 'later' : 'now';
}

/** How long a session's loop that failed waits before it runs the work still queued. */
export const LOOP_RETRY_MS = 5_000;

/** Runs `again` after a pause on the clock, unless the session is aborted (or cut) meanwhile. */
export function afterPause(clock: Clock, runtime: Runtime, again: () => void): void {
  clock.sleep(LOOP_RETRY_MS, runtime.controller.signal).then(
    () => void (runtime.cancelled || again()),
    () => undefined,
  );
}

/** Drops the work a loop held in memory (people queued, an AI round wanted): the session is resumed from the store. */
export function dropQueuedWork(runtime: Runtime): void {
  runtime.pendingHumans = [];
  runtime.folded = [];
  // The rounds that read them ahead were cut: the store says who is unanswered now.
  runtime.readAhead.clear();
  runtime.owed = null;
  runtime.wantAiRound = false;
  runtime.rerun = false;
}
