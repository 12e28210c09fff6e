import { DiscordAPIError, RESTJSONErrorCodes, type Message } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { HELD_NOTICE, HOLD_FULL, HeldMessages, speaksAbout, type Intake, type IntakeOutcome } from '../../../src/bot/held-messages.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { DatabaseUnreachableError } from '../../../src/core/database-unreachable.ts';
import { createLogger } from '../../../src/logging/logger.ts';

/** A Discord message as the hold sees it: its id, and what a fetch finds now (its edited text, or nothing when deleted). */
function message(id: string, content: string, now: () => string | null = () => content): Message {
  const self = {
    id,
    content,
    fetch: async () => {
      const current = now();
      if (current === null)
        throw new DiscordAPIError(
          { code: RESTJSONErrorCodes.UnknownMessage, message: 'Unknown Message' },
          RESTJSONErrorCodes.UnknownMessage,
          404,
          'GET',
          `https://discord.test/api/v10/channels/c/messages/${id}`,
          {
            body: undefined,
            files: undefined,
          },
        );
      return { ...self, content: current };
    },
  };
  return self as unknown as Message;
}

/** A gateway that is away until `back` is set, then takes messages in; with what each room was told. */
function room(roomId: string, state: { reachable: boolean; taken: string[]; told: string[] }): Intake {
  return {
    roomId,
    take: async (taken: Message): Promise<IntakeOutcome> => {
      if (!state.reachable) return 'unreachable';
      state.taken.push(`${roomId}: ${taken.content}`);
      return 'taken';
    },
    tell: async (text) => void state.told.push(`${roomId}: ${text}`),
  };
}

function setUp(capacity?: number) {
  const clock = new ManualClock('2026-12-07T09:00:00Z');
  const held = new HeldMessages({ clock, logger: createLogger({ level: 'silent', secrets: [] }), ...(capacity ? { capacity } : {}) });
  const state = { reachable: true, taken: [] as string[], told: [] as string[] };
  return { clock, held, state };
}

/**
 * Two messages in one room while the database is away: the first one's first try is answered only on `answerFirst`
 * (as the database stands then), the second one's fails at once, so it is held first.
 */
function twoMessagesFirstSlow(secondWouldBeTaken = false) {
  const clock = new ManualClock('2026-12-07T09:00:00Z');
  const held = new HeldMessages({ clock, logger: createLogger({ level: 'silent', secrets: [] }) });
  const taken: string[] = [];
  const state = { reachable: false };
  let answerFirst: () => void = () => undefined;
  const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
  const intake = (slow: boolean): Intake => ({
    roomId: 'r1',
    take: async (current) => {
      if (slow && taken.length === 0) await firstAnswered;
      if (!state.reachable) return 'unreachable';
      taken.push(current.content);
      return 'taken';
    },
    tell: async () => undefined,
  });
  const first = held.receive(message('1', 'first'), intake(true));
  // The second comes while the first is still being tried; as the database stands then, it would be taken, or not.
  state.reachable = secondWouldBeTaken;
  const second = held.receive(message('2', 'second'), intake(false));
  state.reachable = false;
  return { clock, held, taken, state, bothReceived: Promise.all([first, second]), answerFirst };
}

describe('HeldMessages', () => {
  it('takes a message in at once while the database answers', async () => {
    const { held, state } = setUp();
    await held.receive(message('1', 'hello'), room('r1', state));
    expect(state.taken).toEqual(['r1: hello']);
    expect(held.holding()).toBe(false);
  });

  it('holds messages while the database is away, tells each room once, and takes them up in order once it answers', async () => {
    const { clock, held, state } = setUp();
    state.reachable = false;
    await held.receive(message('1', 'first'), room('r1', state));
    await held.receive(message('2', 'second'), room('r1', state));
    await held.receive(message('3', 'elsewhere'), room('r2', state));
    expect(state.told).toEqual([`r1: ${HELD_NOTICE}`, `r2: ${HELD_NOTICE}`]);
    await clock.advance(1000);
    await clock.advance(2000);
    expect(state.taken).toEqual([]);
    state.reachable = true;
    await clock.advance(4000);
    await held.settled();
    expect(state.taken).toEqual(['r1: first', 'r1: second', 'r2: elsewhere']);
    expect(held.holding()).toBe(false);
  });

  it('tries every 2 s however long the database stays away, so a message is taken in within 2 s of its return', async () => {
    const { clock, held, state } = setUp();
    state.reachable = false;
    await held.receive(message('1', 'first'), room('r1', state));
    for (let second = 0; second < 120; second += 1) await clock.advance(1000);
    state.reachable = true;
    await clock.advance(2000);
    expect(state.taken).toEqual(['r1: first']);
  });

  it('queues a message that comes while others wait behind them, even when the database answers it at once', async () => {
    const { clock, held, state } = setUp();
    state.reachable = false;
    await held.receive(message('1', 'first'), room('r1', state));
    state.reachable = true;
    await held.receive(message('2', 'second'), room('r1', state));
    expect(state.taken).toEqual([]);
    await clock.advance(1000);
    await held.settled();
    expect(state.taken).toEqual(['r1: first', 'r1: second']);
  });

  it('takes a held message as it was last edited, and skips one deleted meanwhile', async () => {
    const { clock, held, state } = setUp();
    let edited: string | null = 'before';
    state.reachable = false;
    await held.receive(
      message('1', 'before', () => edited),
      room('r1', state),
    );
    await held.receive(
      message('2', 'gone', () => null),
      room('r1', state),
    );
    edited = 'after the edit';
    state.reachable = true;
    await clock.advance(1000);
    await held.settled();
    expect(state.taken).toEqual(['r1: after the edit']);
  });

  it('tells a room again in the next outage, and asks people to send again once the hold is full', async () => {
    const { clock, held, state } = setUp(1);
    state.reachable = false;
    await held.receive(message('1', 'first'), room('r1', state));
    await held.receive(message('2', 'too many'), room('r1', state));
    expect(state.told).toEqual([`r1: ${HELD_NOTICE}`, `r1: ${HOLD_FULL}`]);
    state.reachable = true;
    await clock.advance(1000);
    await held.settled();
    state.reachable = false;
    await held.receive(message('3', 'again'), room('r1', state));
    expect(state.told.at(-1)).toBe(`r1: ${HELD_NOTICE}`);
    expect(state.taken).toEqual(['r1: first']);
  });

  it('stops trying on a stop: what waits is left to the next start', async () => {
    const { held, state } = setUp();
    state.reachable = false;
    await held.receive(message('1', 'first'), room('r1', state));
    await held.stop();
    expect(held.holding()).toBe(true);
    const toldBefore = state.told.length;
    await held.receive(message('2', 'after the stop'), room('r1', state));
    // Nothing is said: the next start reads it from the room.
    expect(state.told).toHaveLength(toldBefore);
  });

  it('reads the rooms back once the database answers when an edit or a deletion could not be applied meanwhile', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    let reachable = false;
    let readBacks = 0;
    const held = new HeldMessages({
      clock,
      logger: createLogger({ level: 'silent', secrets: [] }),
      catchUp: async () => {
        if (!reachable) throw new DatabaseUnreachableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
        readBacks += 1;
      },
    });
    held.readBackLater();
    held.readBackLater();
    await clock.advance(1000);
    await clock.advance(2000);
    expect(readBacks).toBe(0);
    reachable = true;
    await clock.advance(4000);
    await held.settled();
    expect(readBacks).toBe(1);
  });

  it('reads a room back before it takes a message held meanwhile, so that what was said before that message is read', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    const state = { reachable: true, taken: [] as string[], told: [] as string[] };
    const intake = room('r1', state);
    const catchUpPoints: string[][] = [];
    const held: HeldMessages = new HeldMessages({
      clock,
      logger: createLogger({ level: 'silent', secrets: [] }),
      // The catch-up reads from where the room was read up to, and finds what was said while the bot was away.
      catchUp: async () => {
        catchUpPoints.push([...state.taken]);
        await held.receive(message('5', 'said while the bot was away'), intake);
      },
    });
    // A new gateway session's catch-up met the database away; it answers again before the next message comes.
    held.readBackLater();
    await held.receive(message('7', 'said after the bot came back'), intake);
    expect(state.taken).toEqual([]);
    await clock.advance(1000);
    await held.settled();
    expect(catchUpPoints).toEqual([[]]);
    expect(state.taken).toEqual(['r1: said while the bot was away', 'r1: said after the bot came back']);
    expect(state.told).toEqual([`r1: ${HELD_NOTICE}`]);
  });

  it('lets one process of several that all receive every message tell the room, the same one in each', () => {
    const processes = ['worker_a', 'worker_b', 'worker_c'];
    for (const messageId of ['1579301366411558913', '1579301450272473089', '1579301377740374017', '42']) {
      const speakers = processes.filter((self) => speaksAbout(messageId, processes, self));
      expect(speakers).toHaveLength(1);
    }
    expect(speaksAbout('1579301366411558913', ['worker_a'], 'worker_a')).toBe(true);
    // A list read before this process registered: it speaks rather than leave the room untold.
    expect(speaksAbout('1579301366411558913', ['worker_a', 'worker_b'], 'worker_new')).toBe(true);
  });

  it('holds a message without telling the room when another process tells it', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    const held = new HeldMessages({ clock, logger: createLogger({ level: 'silent', secrets: [] }), tellsAbout: () => false });
    const state = { reachable: false, taken: [] as string[], told: [] as string[] };
    await held.receive(message('1', 'first'), room('r1', state));
    expect(state.told).toEqual([]);
    state.reachable = true;
    await clock.advance(1000);
    await held.settled();
    expect(state.taken).toEqual(['r1: first']);
  });

  it("keeps the order messages came in when the first one's failure comes after the second's", async () => {
    const { clock, held, taken, state, bothReceived, answerFirst } = twoMessagesFirstSlow();
    answerFirst();
    await bothReceived;
    state.reachable = true;
    await clock.advance(1000);
    await held.settled();
    expect(taken).toEqual(['first', 'second']);
  });

  it('tries a message only once the one before it in its room was taken or held: it never overtakes one held meanwhile', async () => {
    const { clock, held, taken, state, bothReceived, answerFirst } = twoMessagesFirstSlow(true);
    // The database comes back while the first is still being tried: the second must not be taken in before it.
    state.reachable = true;
    expect(taken).toEqual([]);
    state.reachable = false;
    answerFirst();
    await bothReceived;
    state.reachable = true;
    await clock.advance(1000);
    await held.settled();
    expect(taken).toEqual(['first', 'second']);
  });

  it('hands nothing over while a message that came earlier is still being tried, once the database is back', async () => {
    const { clock, held, taken, state, bothReceived, answerFirst } = twoMessagesFirstSlow();
    // The first statement hangs on a connection the outage cut, and is answered only after the database is back.
    state.reachable = true;
    await clock.advance(1000);
    expect(taken).toEqual([]);
    answerFirst();
    await bothReceived;
    await held.settled();
    expect(taken).toEqual(['first', 'second']);
  });
});
