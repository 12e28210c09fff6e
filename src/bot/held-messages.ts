/**
 * People's messages that came while the database was unreachable (a Postgres restart, a failover), held in the order
 * they came and handed to the gateway again once it answers. Discord replays nothing later, and a person told "try
 * again" would have to notice and retype; instead the room is told once that its messages wait, and they are taken up
 * in order. A message that comes while others wait joins them, so nobody's words overtake earlier ones. The hold is
 * in memory: a process stopped meanwhile leaves them to the other processes (told of its stop by their heartbeat) or
 * to the next start's catch-up, which read the room from just before the oldest message it claimed and never handled.
 */
import type { Message } from 'discord.js';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../logging/logger.ts';
import { isDatabaseUnreachable } from '../core/database-unreachable.ts';
import { isUnknownResource } from './discord-errors.ts';
import { byId } from './catch-up-revisions.ts';

/** What handing a message to the gateway came to: taken in (or refused, or gone), or the database was away. */
export type IntakeOutcome = 'taken' | 'unreachable';

/** How one message is taken in, and where its room is told that it waits. */
export interface Intake {
  /** The room (or channel) it was said in: told once per outage. */
  roomId: string;
  /** Hands the message, as it stands now, to the gateway and shows the reply. */
  take(message: Message): Promise<IntakeOutcome>;
  /** Replies to the message in its room. */
  tell(text: string): Promise<void>;
}

/** The room's one notice that its messages wait. */
export const HELD_NOTICE =
  'I cannot reach my database right now (a restart or a network problem). I am holding your message, and what anyone says here next: I will take them up in order as soon as it is back.';
/** What a person hears when the hold is full. */
export const HOLD_FULL = 'I cannot reach my database right now, and too many messages are already waiting for it. Please send yours again in a few minutes.';

/** What the hold needs. */
export interface HeldMessagesOptions {
  clock: Clock;
  logger: Logger;
  /** Waits between tries while the database stays away (the last repeats); default 1 s, then every 2 s. */
  retryDelaysMs?: readonly number[];
  /** How many messages may wait; past it a person is asked to send theirs again (default 500). */
  capacity?: number;
  /**
   * Reads the rooms back (the bot's catch-up): run once the database is back when an edit or a deletion could not be
   * applied meanwhile, which the catch-up applies from the rooms' latest messages, or when a catch-up itself could
   * not run (a new gateway session began while the database was away: what was said meanwhile is read then).
   */
  catchUp?: () => Promise<unknown>;
  /**
   * Whether this process is the one to tell the room about `messageId` (default: it is). Processes without shards all
   * receive every message and all hold it: one of them speaks, or the room would hear each.
   */
  tellsAbout?: (messageId: string) => boolean;
}

/**
 * Whether `self`, among `processes` that all receive every message (no shards), is the one to speak about `messageId`:
 * the same answer in each of them, from the message's id and the live processes they read alike.
 */
export function speaksAbout(messageId: string, processes: readonly string[], self: string): boolean {
  if (processes.length <= 1 || !processes.includes(self) || !/^\d+$/.test(messageId)) return true;
  return processes[Number(BigInt(messageId) % BigInt(processes.length))] === self;
}

interface HeldMessage {
  message: Message;
  intake: Intake;
  /** When it came, among every message received: a slower failure must not put it behind one that came after it. */
  arrival: number;
}

/**
 * As often as the job worker and the session owner try (every second or two): a try while the database is away fails
 * at once, and each second a held message waits after it is back is one in which a process stopped loses it (a claim
 * whose answer was lost is this process's alone to take again). It waited up to 15 s.
 */
const DEFAULT_DELAYS_MS = [1000, 2000];

/** The messages waiting for the database, tried again on the clock, oldest first. */
export class HeldMessages {
  private readonly waiting: HeldMessage[] = [];
  private arrivals = 0;
  private readonly toldRooms = new Set<string>();
  private readonly stopping = new AbortController();
  private readonly stopped = new Promise<void>((resolve) => this.stopping.signal.addEventListener('abort', () => resolve(), { once: true }));
  private draining: Promise<void> | null = null;
  /** Messages whose first try is under way, by arrival: each ends once the message is taken in or held. */
  private readonly trying = new Map<number, { roomId: string; ended: Promise<void> }>();
  /** An edit, a deletion or a catch-up missed the database: the rooms are read back once it is back. */
  private readBackMissed = false;
  /** A read back is under way: what it hands over is held without a word to the room. */
  private readingBack = false;

  constructor(private readonly options: HeldMessagesOptions) {}

  /**
   * True while messages wait, or while the rooms are owed a read back: a message taken before it would move its room's
   * catch-up point past what was said before it, which the read back then would not read.
   */
  holding(): boolean {
    return this.waiting.length > 0 || this.readBackMissed;
  }

  /**
   * Takes a person's message in, or holds it when the database is away, or when earlier messages wait (it must not
   * overtake them). The room hears once per outage that its messages wait; past the hold's capacity, to send again.
   */
  async receive(message: Message, intake: Intake): Promise<void> {
    const arrival = this.arrivals++;
    if (this.holding()) return this.hold(message, intake, arrival);
    const before = [...this.trying.values()].filter((other) => other.roomId === intake.roomId).map((other) => other.ended);
    // Until its first try ends, no message of its room that came after it is tried, nor a held one handed over.
    let tried: () => void = () => undefined;
    this.trying.set(arrival, { roomId: intake.roomId, ended: new Promise<void>((resolve) => (tried = resolve)) });
    let held: Promise<void> | undefined;
    try {
      // One of its room before it may yet be held (the database went away under it): then this one waits behind it.
      if (before.length > 0) await Promise.all(before);
      // `hold` places the message before it first awaits: the drain, woken by `tried`, finds it in its place.
      if (this.holding()) held = this.hold(message, intake, arrival);
      else held = (await intake.take(message)) === 'taken' ? undefined : this.hold(message, intake, arrival);
    } finally {
      this.trying.delete(arrival);
      tried();
    }
    await held;
  }

  /** Holds a message in the order it came, and tells its room once per outage (past the capacity: to send again). */
  private async hold(message: Message, intake: Intake, arrival: number): Promise<void> {
    // Stopping: the next start's catch-up reads it from the room, as it reads what waits.
    if (this.stopping.signal.aborted) return;
    // What the read back finds is held silently: the database answers again by then.
    const speaks = !this.readingBack && (this.options.tellsAbout?.(message.id) ?? true);
    if (this.waiting.length >= (this.options.capacity ?? 500)) return speaks ? intake.tell(HOLD_FULL) : undefined;
    // In the order they were said (which is the order live ones came): a message the read back finds comes before the
    // newer ones held meanwhile, and two messages taken at once may fail in the other order.
    const behind = this.waiting.findIndex((held) => byId(held.message, message) > 0);
    this.waiting.splice(behind === -1 ? this.waiting.length : behind, 0, { message, intake, arrival });
    this.startDraining();
    if (this.toldRooms.has(intake.roomId)) return;
    this.toldRooms.add(intake.roomId);
    if (speaks) await intake.tell(HELD_NOTICE);
  }

  /**
   * An edit or a deletion could not be applied, or a catch-up could not run (the database is away): the rooms are
   * read back once it is back.
   */
  readBackLater(): void {
    if (this.stopping.signal.aborted || !this.options.catchUp) return;
    this.readBackMissed = true;
    this.startDraining();
  }

  /** Resolves once nothing waits (tests). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Stops trying (shutdown); what still waits is read back by the next start's catch-up. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.draining;
    if (this.waiting.length > 0)
      this.options.logger.warn(
        { messages: this.waiting.length },
        'stopped with messages waiting for the database: another process, or the next start, takes them over',
      );
  }

  private startDraining(): void {
    this.draining ??= this.drain().finally(() => (this.draining = null));
  }

  private async drain(): Promise<void> {
    const delays = this.options.retryDelaysMs ?? DEFAULT_DELAYS_MS;
    let tries = 0;
    this.options.logger.warn('the database is unreachable: holding people’s messages until it is back');
    while (this.waiting.length > 0 || this.readBackMissed) {
      const delay = delays[Math.min(tries, delays.length - 1)] ?? 1000;
      if (
        !(await this.options.clock.sleep(delay, this.stopping.signal).then(
          () => true,
          () => false,
        ))
      )
        return;
      // The rooms are read back first, from catch-up points that no held message has moved yet.
      const read = await this.readBack();
      const progressed = read !== 'unreachable' && (await this.handOver());
      tries = progressed || read === 'read' ? 0 : tries + 1;
    }
    this.toldRooms.clear();
    this.options.logger.info('the database is back: the held messages were taken in');
  }

  /** Reads the rooms back when they are owed it: `none` when they are not, `unreachable` while the database is away. */
  private async readBack(): Promise<'none' | 'read' | 'unreachable'> {
    if (!this.readBackMissed || !this.options.catchUp) return 'none';
    this.readingBack = true;
    try {
      await this.options.catchUp();
    } catch (error) {
      if (isDatabaseUnreachable(error)) return 'unreachable';
      this.options.logger.warn({ err: error }, 'reading the rooms back after a database outage failed');
    } finally {
      this.readingBack = false;
    }
    this.readBackMissed = false;
    return 'read';
  }

  /** Hands the waiting messages over, oldest first, until the database is away again; true when any was taken. */
  private async handOver(): Promise<boolean> {
    let taken = false;
    for (let next = this.waiting[0]; next; next = this.waiting[0]) {
      const arrival = next.arrival;
      const earlier = [...this.trying].filter(([other]) => other < arrival).map(([, { ended }]) => ended);
      if (earlier.length > 0) {
        // One that came first is still being tried (its statement outlived the outage): it is taken, or held ahead.
        await Promise.race([Promise.all(earlier), this.stopped]);
        if (this.stopping.signal.aborted) return taken;
        continue;
      }
      const outcome = await this.retake(next).catch((error: unknown) => {
        this.options.logger.error({ err: error, messageId: next?.message.id }, 'a held message failed when handed over again');
        return 'taken' as const;
      });
      if (outcome === 'unreachable') return taken;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      taken = true;
    }
    return taken;
  }

  /** The message as it stands now (edited meanwhile: its last words), unless it was deleted meanwhile. */
  private async retake({ message, intake }: HeldMessage): Promise<IntakeOutcome> {
    const current = await message.fetch(true).catch((error: unknown) => (isUnknownResource(error) ? null : message));
    return current ? intake.take(current) : 'taken';
  }
}
