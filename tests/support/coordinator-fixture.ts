/** A coordinator over real repositories, with every other collaborator a recording double (the coordinator's unit tests). */
import type { LimitsConfig } from '../../src/config/app-config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { ChatMessage, Session } from '../../src/core/domain.ts';
import { InMemoryEventBus } from '../../src/core/event-bus.ts';
import type { DocumentationHooks, ModerationPort, SessionEnder } from '../../src/core/service-ports.ts';
import { Coordinator } from '../../src/services/coordinator/coordinator.ts';
import { restartRoundsOnResume } from '../../src/services/coordinator/resume-rounds.ts';
import { SpeakerHints } from '../../src/services/coordinator/speaker-hints.ts';
import type { DeliveryService } from '../../src/services/delivery/delivery-service.ts';
import { LimitsService } from '../../src/services/limits/limits-service.ts';
import { RosterService } from '../../src/services/sessions/roster-service.ts';
import { ScriptedTurns } from './scripted-turns.ts';
import { limitsConfig, openRepositories, participant, quietLogger, storeSession, stub, type TestRepositories } from './service-doubles.ts';

/** A coordinator over real repositories, with every other collaborator a recording double. */
export async function coordinatorFixture(overrides: Partial<LimitsConfig> = {}) {
  const clock = new ManualClock();
  const repositories = await openRepositories();
  const settings = limitsConfig(overrides);
  const roster = new RosterService(
    ['Claude', 'ChatGPT', 'Grok'].map((name) => participant(name)),
    { disabledParticipants: () => [], setParticipantEnabled: async () => undefined },
    () => true,
  );
  const turns = new ScriptedTurns(repositories, clock);
  const posts: { speaker: string; text: string }[] = [];
  /**
   * What the Moderator's hook does after a round (it says it changed the session when it did something), what the
   * documentation's hook does before it (it says nothing), and what the room's flush before a round does.
   */
  const hooks: {
    afterRound: ((session: Session) => Promise<void>) | null;
    onMessage: ((sessionId: string) => Promise<void>) | null;
    flushRoom: (() => Promise<void>) | null;
  } = { afterRound: null, onMessage: null, flushRoom: null };
  const delivery = stub<DeliveryService>('delivery', {
    flushRoom: async () => hooks.flushRoom?.(),
    post: async (session, speaker, text) => {
      posts.push({ speaker: speaker.name, text });
      const { message } = await repositories.messages.insert(
        { sessionId: session.id, speaker, role: 'system', text, deliveryStatus: 'delivered' },
        clock.now(),
      );
      return message;
    },
  });
  const checked: string[] = [];
  const moderation = stub<ModerationPort>('moderation', {
    afterRound: async (session) => {
      checked.push(session.id);
      await hooks.afterRound?.(session);
      return hooks.afterRound !== null;
    },
  });
  const documented: string[] = [];
  const documentation: DocumentationHooks = {
    onMessage: async (sessionId) => {
      documented.push(sessionId);
      await hooks.onMessage?.(sessionId);
    },
  };
  const ended: { sessionId: string; status: string; reason: string }[] = [];
  // Ends as the lifecycle would: the status changes, so the coordinator's next look finds the session over.
  const ender: SessionEnder = {
    end: async (sessionId, status, reason) => {
      ended.push({ sessionId, status, reason });
      await repositories.sessions.update(sessionId, { status, endReason: reason, endedAt: clock.now() }, clock.now());
    },
  };
  const hints = new SpeakerHints();
  const events = new InMemoryEventBus();
  const coordinator = new Coordinator({
    sessions: repositories.sessions,
    messages: repositories.messages,
    roster,
    turns: turns.runner(),
    limits: new LimitsService(repositories.messages, () => settings, clock),
    delivery,
    moderation,
    documentation,
    ender,
    hints,
    events,
    settings: () => settings,
    clock,
    logger: quietLogger(),
    deadlines: () => null,
  });
  // As the composition wires it: the entry point hears `!continue` (here the coordinator itself, one process).
  restartRoundsOnResume(events, coordinator);
  const session = await storeSession(repositories.sessions, clock, { changes: { startedAt: clock.now(), clockStartedAt: clock.now() } });
  /**
   * A person's message, stored and counted as the gateway does, then handed to the coordinator with the row its count
   * returned; `counted: false` hands it over as a takeover does, with a session read earlier; `folded`, as one written
   * faster than the room answers.
   */
  const say = async (text: string, { counted = true, folded = false } = {}): Promise<ChatMessage> => {
    const { message } = await repositories.messages.insert(
      { sessionId: session.id, speaker: { kind: 'human', name: 'Alice', id: 'u-alice' }, role: 'user', text, deliveryStatus: 'received' },
      clock.now(),
    );
    const current = (await repositories.sessions.countHumanTurn(session.id, clock.now())) as Session;
    coordinator.onHumanMessage(current, message, { counted, folded });
    return message;
  };
  const fixture = { clock, repositories, settings, turns, posts, checked, hooks, documented, ended, hints, events, coordinator, session, say };
  fixtures.push(fixture);
  return fixture;
}

const fixtures: { turns: ScriptedTurns; coordinator: Coordinator; repositories: TestRepositories }[] = [];

/** Ends every fixture's open turns, shuts its coordinator down and closes its database (an `afterEach`). */
export async function closeCoordinatorFixtures(): Promise<void> {
  for (const { turns, coordinator, repositories } of fixtures.splice(0)) {
    turns.auto = async () => ({ status: 'interrupted', message: null, cut: 'stopped' });
    for (const call of turns.open()) call.finish({ status: 'interrupted', message: null, cut: 'stopped' });
    await coordinator.shutdown();
    await repositories.handle.close();
  }
}
