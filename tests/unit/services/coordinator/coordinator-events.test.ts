/**
 * The coordinator on its own (no createApp): real repositories over a PGlite clone, the real roster and limits,
 * a scripted turn runner whose answers the test releases, and the event bus the lifecycle publishes on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRepositories, type Repositories } from '../../../../src/composition/build-repositories.ts';
import { buildConfig } from '../../../../src/config/load-config.ts';
import type { ParticipantConfig } from '../../../../src/config/roster.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { ChatMessage, Session } from '../../../../src/core/domain.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { DatabaseHandle } from '../../../../src/db/create-database.ts';
import { createLogger } from '../../../../src/logging/logger.ts';
import { Coordinator } from '../../../../src/services/coordinator/coordinator.ts';
import { restartRoundsOnResume } from '../../../../src/services/coordinator/resume-rounds.ts';
import { SpeakerHints } from '../../../../src/services/coordinator/speaker-hints.ts';
import type { TurnControl } from '../../../../src/services/coordinator/turn-control.ts';
import type { TurnOutcome } from '../../../../src/services/coordinator/turn-outcome.ts';
import { LimitsService } from '../../../../src/services/limits/limits-service.ts';
import { RosterService } from '../../../../src/services/sessions/roster-service.ts';
import { openTestDatabase } from '../../../support/databases.ts';

interface Turn {
  name: string;
  control: TurnControl;
  answer(): void;
}

const config = buildConfig({});
const clock = new ManualClock('2026-05-01T09:00:00Z');
let database: DatabaseHandle;
let repositories: Repositories;
let bus: InMemoryEventBus;
let hints: SpeakerHints;
let turns: Turn[];
let posted: string[];
let ended: string[];
let coordinator: Coordinator;
let session: Session;

beforeEach(async () => {
  database = await openTestDatabase('pglite');
  repositories = buildRepositories(database);
  bus = new InMemoryEventBus();
  hints = new SpeakerHints();
  turns = [];
  posted = [];
  ended = [];
  const roster = new RosterService(config.models.roster, { disabledParticipants: () => [], setParticipantEnabled: async () => undefined }, () => true);
  const limits = () => ({ ...config.limits, maxAiRoundsWithoutHuman: 1 });
  const store = async (text: string, participant?: ParticipantConfig): Promise<ChatMessage> => {
    const speaker = participant
      ? { kind: 'participant' as const, name: participant.name, id: participant.id }
      : { kind: 'system' as const, name: 'Brainstorm' };
    const { message } = await repositories.messages.insert(
      { sessionId: session.id, sourceId: null, speaker, role: 'assistant', text, deliveryStatus: 'delivered', externalIds: [], externalUrl: null },
      clock.now(),
    );
    return message;
  };
  coordinator = new Coordinator({
    sessions: repositories.sessions,
    messages: repositories.messages,
    roster,
    turns: {
      run: ({ participant, control }) =>
        new Promise<TurnOutcome>((resolve) => {
          control.signal.addEventListener('abort', () => resolve({ status: 'interrupted', message: null, cut: 'stopped' }));
          turns.push({
            name: participant.name,
            control,
            answer: () => void store(`${participant.name} answers`, participant).then((message) => resolve({ status: 'answered', message })),
          });
        }),
    },
    limits: new LimitsService(repositories.messages, limits, clock),
    delivery: {
      post: async (_session, _speaker, text) => {
        posted.push(text);
        return store(text);
      },
      flushRoom: async () => undefined,
    },
    moderation: { afterRound: async () => false, refocus: async () => '', wrapUp: async () => undefined },
    documentation: { onMessage: async () => undefined },
    ender: { end: async (sessionId) => void ended.push(sessionId) },
    hints,
    events: bus,
    settings: limits,
    clock,
    logger: createLogger({ level: 'silent', secrets: [] }),
    deadlines: () => null,
  });
  // As the composition wires it: the entry point hears `!continue` (here the coordinator itself, one process).
  restartRoundsOnResume(bus, coordinator);
  const created = await repositories.sessions.create(
    {
      id: 'ses-1',
      parentId: null,
      transport: 'memory',
      roomId: 'room-1',
      roomUrl: null,
      originChannelId: null,
      originMessageId: null,
      topic: 'Tea shop names',
      status: 'active',
      createdBy: { id: 'u1', name: 'Ada' },
    },
    clock.now(),
  );
  session = (await repositories.sessions.update(created.id, { startedAt: clock.now(), clockStartedAt: clock.now() }, clock.now())) ?? created;
});

afterEach(async () => {
  await coordinator.shutdown();
  await database.close();
});

async function personSays(text: string): Promise<ChatMessage> {
  const { message } = await repositories.messages.insert(
    {
      sessionId: session.id,
      sourceId: `memory:${text}`,
      speaker: { kind: 'human', name: 'Ada', id: 'u1' },
      role: 'user',
      text,
      deliveryStatus: 'received',
      externalIds: [text],
      externalUrl: null,
    },
    clock.now(),
  );
  coordinator.onHumanMessage(session, message);
  return message;
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

describe('Coordinator', () => {
  it('answers a person with up to MAX_AI_RESPONSES_PER_TURN participants at once', async () => {
    await personSays('Ideas for a tea shop name?');
    await until(() => turns.length === Math.min(config.limits.maxAiResponsesPerTurn, config.models.roster.length));
    expect(new Set(turns.map((turn) => turn.name)).size).toBe(turns.length);
  });

  it('a session_ended event on the bus cuts every turn in flight, and no round follows', async () => {
    await personSays('Ideas for a tea shop name?');
    await until(() => turns.length > 0);
    const cut = turns.slice();
    bus.publish({ type: 'session_ended', sessionId: session.id });
    expect(cut.every((turn) => turn.control.signal.aborted)).toBe(true);
    await coordinator.idle(session.id);
    expect(turns).toHaveLength(cut.length);
  });

  it('a held participant sits the next round out, and the hints are spent once a round is planned with them', async () => {
    const held = config.models.roster[0]!.name;
    hints.hold(session.id, held);
    await personSays('Ideas for a tea shop name?');
    await until(() => turns.length > 0);
    expect(turns.map((turn) => turn.name)).not.toContain(held);
    expect(hints.current(session.id)).toEqual({ invited: [], held: [] });
  });

  it('after the loop guard’s rounds it waits for a person; a session_resumed event starts the rounds again', async () => {
    await personSays('Ideas for a tea shop name?');
    await until(() => turns.length > 0);
    for (const turn of turns.splice(0)) turn.answer();
    await coordinator.idle(session.id);
    // The human round counted 1 of 1 allowed AI rounds: no AI round follows, and no notice after the answers.
    expect(posted.some((text) => text.includes('waiting for a person'))).toBe(false);
    expect(turns).toHaveLength(0);
    await repositories.sessions.update(session.id, { aiRoundsSinceHuman: 0 }, clock.now());
    bus.publish({ type: 'session_resumed', sessionId: session.id });
    await until(() => turns.length > 0);
  });
});
