import { describe, expect, it } from 'vitest';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { ChatMessage, Session } from '../../../../src/core/domain.ts';
import type { Coordinator } from '../../../../src/services/coordinator/coordinator.ts';
import { OwnedCoordinator } from '../../../../src/services/scale/owned-coordinator.ts';
import type { SessionOwnership } from '../../../../src/services/scale/session-ownership.ts';
import { stub } from '../../../support/service-doubles.ts';

/** The lease-aware entry over recording doubles of the local rounds and the ownership. */
function ownedFixture() {
  const calls: string[] = [];
  const rounds = stub<Coordinator>('rounds', {
    abort: (sessionId) => void calls.push(`rounds.abort ${sessionId}`),
    kick: (sessionId) => void calls.push(`rounds.kick ${sessionId}`),
    onHumanMessage: (session) => void calls.push(`rounds.human ${session.id}`),
    busySessions: () => ['s1'],
    idle: async () => void calls.push('rounds.idle'),
  });
  const ownership = stub<SessionOwnership>('ownership', {
    human: (session) => void calls.push(`ownership.human ${session.id}`),
    kick: (sessionId) => void calls.push(`ownership.kick ${sessionId}`),
    pendingSessions: () => ['s1', 's2'],
    settled: async () => void calls.push('ownership.settled'),
    holds: (sessionId) => sessionId === 's1',
    callOwner: (sessionId) => void calls.push(`ownership.callOwner ${sessionId}`),
  });
  const events = new InMemoryEventBus();
  return { calls, events, coordinator: new OwnedCoordinator(rounds, ownership, events) };
}

describe('OwnedCoordinator', () => {
  it('sends people and kicks through the lease, never straight to the local rounds', () => {
    const { calls, coordinator } = ownedFixture();
    coordinator.onHumanMessage({ id: 's1' } as Session, { id: 1 } as ChatMessage);
    coordinator.kick('s1');
    expect(calls).toEqual(['ownership.human s1', 'ownership.kick s1']);
  });

  it('hears `!continue` (session_resumed) and passes it to the lease, so only the owner restarts the rounds', () => {
    const { calls, events } = ownedFixture();
    events.publish({ type: 'session_resumed', sessionId: 's1' });
    expect(calls).toEqual(['ownership.kick s1']);
  });

  it('calls the owner elsewhere of a session that ended here, so its rounds stop at once; not a session held here', () => {
    const { calls, events } = ownedFixture();
    events.publish({ type: 'session_ended', sessionId: 's2' });
    events.publish({ type: 'session_ended', sessionId: 's1' });
    expect(calls).toEqual(['ownership.callOwner s2']);
  });

  it('calls the owner elsewhere of a session paused here, so that no round starts there after the answers being written', () => {
    const { calls, events } = ownedFixture();
    events.publish({ type: 'session_paused', sessionId: 's2' });
    events.publish({ type: 'session_paused', sessionId: 's1' });
    expect(calls).toEqual(['ownership.callOwner s2']);
  });

  it('cuts its own turns at once, and counts claims under way as work in flight', async () => {
    const { calls, coordinator } = ownedFixture();
    coordinator.abort('s1');
    await coordinator.idle('s1');
    expect(calls).toEqual(['rounds.abort s1', 'ownership.settled', 'rounds.idle']);
    expect(coordinator.busySessions()).toEqual(['s1', 's2']);
  });
});
