import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { randomIds } from '../../../src/core/ids.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { waitUntil } from '../../support/app-cluster.ts';
import { createThrowawayPostgres } from '../../support/databases.ts';
import { MemoryTransport } from '../../support/memory-transport.ts';
import { scriptedPlan } from '../../support/scripted-plans.ts';
import { OPENING_GRACE_MS } from '../../../src/services/scale/unanswered-people.ts';
import { SESSION_OWNER_CHANNEL } from '../../../src/repositories/session-leases-repository.ts';
import { alice, fakeEnvironment, startTestApp, type TestApp } from '../../support/test-app.ts';

let fake: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
});
afterAll(async () => {
  await fake?.close();
  await database?.drop();
});

/** Two processes' worth of app on one Postgres, one clock and one room store (the rooms are the outside world). */
async function twoProcesses(
  prefix: string,
  extra: Record<string, string> = {},
): Promise<{ first: TestApp; second: TestApp; transport: MemoryTransport; clock: ManualClock }> {
  const environment = fakeEnvironment(fake.url, { DATABASE_URL: database.url, SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', ...extra });
  const clock = new ManualClock('2026-07-01T09:00:00Z');
  const transport = new MemoryTransport('memory', prefix);
  const location = { kind: 'postgres' as const, url: database.url };
  const first = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
  const second = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
  return { first, second, transport, clock };
}

async function activeSession(test: TestApp, transport: MemoryTransport, topic: string): Promise<{ room: string; sessionId: string }> {
  fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
  await test.say(null, topic);
  await test.settle();
  const room = transport.rooms.at(-1)!.roomId;
  await test.command(room, 'approve');
  await test.settle();
  const session = await test.app.repositories.sessions.findByRoom('memory', room);
  expect(session?.status).toBe('active');
  return { room, sessionId: session!.id };
}

const answersTo = (transport: MemoryTransport, room: string, person: string) =>
  transport.room(room).filter((message) => message.speakerKind === 'participant' && message.replyTo.includes(person));

describe('sessions leased to one process among several', () => {
  it('a message stored by a process that does not own the session is answered by its owner, once each', async () => {
    const { first, second, transport } = await twoProcesses('lease');
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Lease drill: who answers?');
      expect(first.app.services.ownership.holds(sessionId)).toBe(true);

      const bob = { id: 'u-bob', name: 'Bob', isAdmin: false };
      await second.say(room, 'Bob asks through the other process', bob);
      await second.settle();
      expect(second.app.services.ownership.holds(sessionId)).toBe(false);
      expect(answersTo(transport, room, 'Bob')).toHaveLength(0);

      await first.app.services.ownership.tick();
      await first.settle();
      await first.app.services.ownership.tick();
      await first.settle();
      const answers = answersTo(transport, room, 'Bob');
      expect(answers.map((message) => message.speaker).sort()).toEqual(['ChatGPT', 'Claude', 'Grok']);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it("a message stored by another process, and a stop decided there, reach the owner by that process's notice, not at its next poll", async () => {
    // A poll ten minutes apart: only the notice can bring the message to the owner within the test.
    const { first, second, transport } = await twoProcesses('notice', { SESSION_POLL_MS: '600000' });
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Notice drill: who answers at once?');
      first.app.services.ownership.startPolling();
      await waitUntil(async () => (await listeningConnections()) === 1, "the owner's listening connection");
      const bob = { id: 'u-bob', name: 'Bob', isAdmin: false };
      await second.say(room, 'Bob asks through the other process', bob);
      await second.settle();
      expect(second.app.services.ownership.holds(sessionId)).toBe(false);
      // The owner's deliveries run when it settles (its worker is not polling here either).
      await waitUntil(
        async () => {
          await first.settle();
          return answersTo(transport, room, 'Bob').length === 3;
        },
        'the owner to answer Bob',
        20_000,
      );
      expect(
        answersTo(transport, room, 'Bob')
          .map((message) => message.speaker)
          .sort(),
      ).toEqual(['ChatGPT', 'Claude', 'Grok']);

      // `!stop` through the other process: the owner lets the session go at once, its rounds cut.
      await second.command(room, 'stop', '', alice);
      await second.settle();
      await waitUntil(async () => !first.app.services.ownership.holds(sessionId), 'the owner to let the ended session go', 20_000);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('a process that dies keeps nothing: once its lease lapses another adopts the session and answers who spoke', async () => {
    const { first, second, transport, clock } = await twoProcesses('failover');
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Failover drill: does the room go on?');
      for (const participant of ['Claude', 'ChatGPT', 'Grok']) fake.script({ participant }, replies.hang());
      await first.say(room, 'Are you still there?', alice);
      // The first process dies mid-turn: its rounds end, its lease and instance row stay as they were.
      await first.app.services.ownership.stop();
      await first.app.services.coordinator.shutdown();
      fake.reset();
      const before = transport.room(room).length;

      await second.app.services.ownership.tick();
      expect(second.app.services.ownership.holds(sessionId)).toBe(false);
      await clock.advance(16_000);
      await second.app.services.ownership.tick();
      expect(second.app.services.ownership.holds(sessionId)).toBe(true);
      await second.settle();
      const after = transport
        .room(room)
        .slice(before)
        .filter((message) => message.speakerKind === 'participant' && message.replyTo.includes('Alice'));
      expect(after.map((message) => message.speaker).sort()).toEqual(['ChatGPT', 'Claude', 'Grok']);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('answers cut short by the old owner’s stop are no answer: the next owner answers the person again', async () => {
    const { first, second } = await twoProcesses('cut');
    try {
      const { sessionId } = await activeSession(first, second.transport, 'Rolling drill: a stop in the middle of a turn');
      const messages = first.app.repositories.messages;
      // What the old owner left when it stopped: a person's message, and only an answer cut short to it.
      const { message: person } = await messages.insert(
        { sessionId, speaker: { kind: 'human', name: 'Alice' }, role: 'user', text: 'Are you still there?', deliveryStatus: 'delivered' },
        first.clock.now(),
      );
      await messages.insert(
        {
          sessionId,
          speaker: { kind: 'participant', name: 'Claude' },
          role: 'assistant',
          text: 'Half an answ',
          replyTo: [person.id],
          deliveryStatus: 'delivered',
          interrupted: true,
        },
        first.clock.now(),
      );
      await first.stop();
      await second.app.services.ownership.tick();
      await second.settle();
      const answers = (await second.app.repositories.messages.listForSession(sessionId)).filter(
        (message) => message.speaker.kind === 'participant' && !message.interrupted && message.replyTo.includes(person.id),
      );
      expect(answers.length).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });

  it('a lease lost while answers stream cuts them here and keeps none of them half-written (the new owner has them said again)', async () => {
    const { first, second, transport, clock } = await twoProcesses('lost');
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Lease drill: a pause too long');
      await first.app.services.coordinator.idle(sessionId);
      for (const participant of ['Claude', 'ChatGPT', 'Grok']) fake.script({ participant }, replies.stall('Half of an answer'));
      await first.say(room, 'Are you still there?', alice);
      const streaming = () => transport.messages.filter((message) => message.roomId === room && message.preview).length;
      // Bounded by real time, not by a count of event-loop ticks, which a loaded machine runs through before the fake streams.
      await waitUntil(async () => streaming() >= 3, 'three answers streaming', 20_000, 5);
      expect(streaming()).toBe(3);
      const spentBefore = (await first.app.repositories.sessions.findById(sessionId))?.totalTokens ?? 0;
      // Another process took the session while this one was stalled (its lease lapsed): the next renewal finds it gone.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(`UPDATE session_leases SET owner_id = 'elsewhere' WHERE session_id = $1`, [sessionId]);
      await client.end();
      await clock.advance(6_000);
      await first.app.services.ownership.tick();
      await first.app.services.coordinator.idle(sessionId);
      expect(first.app.services.ownership.holds(sessionId)).toBe(false);
      const kept = (await first.app.repositories.messages.listForSession(sessionId)).filter((message) => message.interrupted);
      expect(kept).toEqual([]);
      // Withdrawn, but paid for: the three cut calls count toward the session's token and cost limits.
      expect((await first.app.repositories.sessions.findById(sessionId))?.totalTokens).toBeGreaterThan(spentBefore);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('a clean stop gives the leases back, so the other process resumes the session at once', async () => {
    const { first, second, transport } = await twoProcesses('rolling');
    try {
      const { sessionId } = await activeSession(first, transport, 'Rolling drill: hand over cleanly');
      await first.stop();
      await second.app.services.ownership.tick();
      expect(second.app.services.ownership.holds(sessionId)).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('a stop handled by another process ends the rounds in the owner and frees the lease', async () => {
    const { first, second, transport } = await twoProcesses('stop');
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Stop drill: who stops it?');
      const reply = await second.command(room, 'stop', '', { id: 'u-admin', name: 'Ada', isAdmin: true });
      expect(reply.content).toMatch(/stop/i);
      await first.app.services.ownership.tick();
      expect(first.app.services.ownership.holds(sessionId)).toBe(false);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it("a pause decided in another process reaches the owner by that process's notice, and the answer being written finishes", async () => {
    const { first, second, transport } = await twoProcesses('pause', { SESSION_POLL_MS: '600000' });
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Pause drill: who finishes?');
      await first.app.services.coordinator.idle(sessionId);
      first.app.services.ownership.startPolling();
      await waitUntil(async () => (await listeningConnections()) === 1, "the owner's listening connection");
      const asked = fake.chats.length;
      fake.script({ participant: 'Claude' }, replies.text('Claude, slowly: pilot it with one team first.', { timing: { latencyMs: 500 } }));
      const bob = { id: 'u-bob', name: 'Bob', isAdmin: false };
      await first.say(room, 'Bob asks the owner', bob);
      await waitUntil(async () => fake.chats.slice(asked).some((chat) => chat.agent.name === 'Claude'), "Claude's model asked");
      // `!pause` through the other process: its notice brings the owner's pass at once, while Claude still writes.
      const ownership = first.app.services.ownership;
      const pass = ownership.tick.bind(ownership);
      let passes = 0;
      ownership.tick = () => {
        passes += 1;
        return pass();
      };
      await second.command(room, 'pause', '', alice);
      await waitUntil(async () => passes > 0, "the owner's pass on the notice", 20_000);
      // On real time, not settle's moving clock: Claude's 500 ms are not to run into its deadline.
      const stored = async () => (await first.app.repositories.messages.listForSession(sessionId)).filter((message) => message.speaker.name === 'Claude');
      const before = (await stored()).length;
      await waitUntil(async () => (await stored()).length > before, "Claude's answer stored", 20_000);
      await first.settle();
      const claude = answersTo(transport, room, 'Bob').find((message) => message.speaker === 'Claude');
      expect(claude?.content).toContain('pilot it with one team first.');
      expect(claude?.content).not.toMatch(/interrupted/);
      expect(first.app.services.ownership.holds(sessionId)).toBe(true);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('!continue handled by another process starts the rounds in the owner, once', async () => {
    const { first, second, transport } = await twoProcesses('continue');
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Continue drill: who goes on?');
      // One AI round, then the loop guard waits for a person.
      await first.app.services.coordinator.idle(sessionId);
      const participantCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
      const before = participantCalls();
      await second.command(room, 'continue');
      await second.settle();
      expect(second.app.services.ownership.holds(sessionId)).toBe(false);
      expect(participantCalls()).toBe(before);
      await first.app.services.ownership.tick();
      await first.settle();
      const after = participantCalls();
      expect(after).toBeGreaterThan(before);
      // The request was taken: a later pass starts nothing more.
      await first.app.services.ownership.tick();
      await first.settle();
      expect(participantCalls()).toBe(after);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('a session adopted while another process approves it: the opening that process posts starts the owner’s rounds', async () => {
    const { first, second, transport, clock } = await twoProcesses('opening-elsewhere');
    try {
      fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
      await first.say(null, 'Opening drill: who starts the rounds?');
      await first.settle();
      const room = transport.rooms.at(-1)!.roomId;
      const proposed = (await first.app.repositories.sessions.findByRoom('memory', room))!;
      // The second process approves: the session is active, and the first adopts it while the opening is written.
      await clock.advance(5_000);
      const active = (await second.app.services.lifecycle.activate(proposed.id, proposed.plan!)) ?? proposed;
      await first.app.services.ownership.tick();
      await first.settle();
      expect(first.app.services.ownership.holds(proposed.id)).toBe(true);
      const participantCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
      const before = participantCalls();
      // The approval posts the opening in the second process and hands it to its rounds, which are not the owner's.
      const opening = await second.app.repositories.messages.insert(
        {
          sessionId: proposed.id,
          speaker: { kind: 'moderator', name: 'Moderator' },
          role: 'assistant',
          text: 'Welcome! The plan is approved. Participants, let us begin.',
          deliveryStatus: 'delivered',
          externalIds: [],
        },
        clock.now(),
      );
      second.app.services.ownership.human(active, opening.message);
      await second.settle();
      expect(second.app.services.ownership.holds(proposed.id)).toBe(false);
      await first.app.services.ownership.tick();
      await first.settle();
      expect(participantCalls()).toBeGreaterThan(before);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('a session adopted while its approval still writes the opening gets no round before it, and one if it never comes', async () => {
    const { first, second, transport, clock } = await twoProcesses('opening');
    try {
      await second.stop();
      fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
      await first.say(null, 'Opening drill: who speaks first?');
      await first.settle();
      const room = transport.rooms.at(-1)!.roomId;
      const proposed = (await first.app.repositories.sessions.findByRoom('memory', room))!;
      // A person reads the plan, approves; the approval has activated the session and still runs the Moderator for its opening.
      await clock.advance(5_000);
      await first.app.services.lifecycle.activate(proposed.id, proposed.plan!);
      const participantCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
      const before = participantCalls();
      await first.app.services.ownership.tick();
      await first.settle();
      expect(first.app.services.ownership.holds(proposed.id)).toBe(true);
      // A round now would be cut by the opening at once: none starts.
      expect(participantCalls()).toBe(before);
      // The approval's process died: with no opening after the grace, the discussion goes on as after a restart.
      await clock.advance(OPENING_GRACE_MS);
      await first.app.services.ownership.tick();
      await first.settle();
      expect(participantCalls()).toBeGreaterThan(before);
    } finally {
      await first.stop();
    }
  });
});

/** Connections listening for the owners' notices on the test database (each process's one listening connection). */
async function listeningConnections(): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>(
      // Every process listens for settings; the owner's notices are the last channel its connection listens to.
      'select count(*)::int as count from pg_stat_activity where datname = current_database() and query = $1',
      [`LISTEN "${SESSION_OWNER_CHANNEL}"`],
    );
    return rows[0]?.count ?? 0;
  } finally {
    await client.end();
  }
}

describe('!refresh handled by a process that does not run the session', () => {
  it("reaches the owner's next round, and the process that handled it does not act on its own notice", async () => {
    const { first, second, transport } = await twoProcesses('refresh');
    try {
      const { room, sessionId } = await activeSession(first, transport, 'Refresh drill: who reads the record?');
      const heard = { first: [] as string[], second: [] as string[] };
      first.app.services.context.refreshedElsewhere = (id) => void heard.first.push(id);
      second.app.services.context.refreshedElsewhere = (id) => void heard.second.push(id);
      await second.command(room, 'refresh');
      await waitUntil(async () => heard.first.length > 0, 'the owner to hear of the !refresh', 20_000);
      // The notice reached both processes at once; the sender's own was dropped.
      await first.command(room, 'refresh');
      await waitUntil(async () => heard.second.length > 0, 'the other process to hear of the second !refresh', 20_000);
      expect(heard).toEqual({ first: [sessionId], second: [sessionId] });
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});

describe('settings changed in one process among several', () => {
  it('are read again by the others at once: !config and !disable handled by the process that does not run the session', async () => {
    const { first, second, transport } = await twoProcesses('settings');
    try {
      await activeSession(first, transport, 'Settings drill: who applies the change?');
      const room = transport.rooms.at(-1)!.roomId;
      const admin = { id: 'u-admin', name: 'Ada', isAdmin: true };
      await second.command(room, 'config', 'MAX_AI_RESPONSES_PER_TURN 2', admin);
      await second.command(room, 'disable', 'Grok', admin);
      const settings = first.app.services.settings;
      await waitUntil(
        async () => settings.effectiveConfig().limits.maxAiResponsesPerTurn === 2 && settings.disabledParticipants().includes('grok'),
        'the other process to read the settings again',
        20_000,
      );
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
