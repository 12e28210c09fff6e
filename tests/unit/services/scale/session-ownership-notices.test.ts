import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { ChatMessage, Session } from '../../../../src/core/domain.ts';
import type { OwnerPass } from '../../../../src/repositories/session-leases-repository.ts';
import { SessionOwnership, type LocalRounds, type SessionOwnershipOptions } from '../../../../src/services/scale/session-ownership.ts';
import { waitUntil } from '../../../support/app-cluster.ts';
import { quietLogger, stub } from '../../../support/service-doubles.ts';

const session = { id: 'ses_1', status: 'active', startedAt: null } as Session;
const emptyPass = (): OwnerPass => ({ statuses: new Map([[session.id, 'active']]), kicks: [], humanMessages: [], orphans: [] });

/** An owner over doubles whose passes the test holds open, and the notices the other processes send it. */
function ownerFixture(holdsLease: boolean) {
  const passes: { release: () => void }[] = [];
  const notified: string[] = [];
  let listener: ((sessionId: string) => void) | null = null;
  const rounds = stub<LocalRounds>('rounds', {
    onHumanMessage: () => undefined,
    kick: () => undefined,
    stalled: { list: () => [], resumed: () => undefined },
  });
  const kicks: string[] = [];
  const leases = stub<SessionOwnershipOptions['leases']>('leases', {
    requestKick: async (sessionId) => {
      kicks.push(sessionId);
      return true;
    },
    lastMessageId: async () => 0,
    acquire: async () => holdsLease,
    renew: async (_owner, sessionIds) => sessionIds,
    release: async () => undefined,
    ownerPass: () => new Promise<OwnerPass>((resolve) => passes.push({ release: () => resolve(emptyPass()) })),
  });
  const ownership = new SessionOwnership({
    ownerId: 'wrk-owner',
    rounds,
    leases,
    sessions: stub('sessions', { findById: async () => session }),
    messages: stub('messages', { listRecent: async () => [], findById: async () => null }),
    clock: new ManualClock('2026-07-01T09:00:00Z'),
    logger: quietLogger(),
    canOwn: async () => true,
    mayContinue: () => false,
    // Ten minutes between polls: every pass here comes from a notice.
    pollMs: 600_000,
    signals: {
      callOwner: (sessionId) => void notified.push(sessionId),
      onOwnerCalled: (onSession) => {
        listener = onSession;
        return () => void (listener = null);
      },
    },
  });
  const notice = (sessionId: string) => listener?.(sessionId);
  return { ownership, passes, notified, notice, listening: () => listener !== null, leases: { kicks } };
}

const fixtures: SessionOwnership[] = [];
afterEach(async () => {
  for (const ownership of fixtures.splice(0)) await ownership.stop();
});

describe('SessionOwnership notices', () => {
  it('runs a pass at once on a notice for a session it holds, and another right after when one comes during a pass', async () => {
    const { ownership, passes, notice, listening } = ownerFixture(true);
    fixtures.push(ownership);
    ownership.human(session, { id: 1, speaker: { kind: 'human', name: 'Bob' } } as ChatMessage);
    await ownership.settled();
    expect(ownership.holds(session.id)).toBe(true);
    ownership.startPolling();
    expect(listening()).toBe(true);

    notice('ses_other');
    notice(session.id);
    await waitUntil(async () => passes.length === 1, 'a pass on the notice', 10_000, 5);
    // The pass in flight may have read the database before the message was stored: one more follows it, not two.
    notice(session.id);
    notice(session.id);
    passes[0]!.release();
    await waitUntil(async () => passes.length === 2, 'the pass after it', 10_000, 5);
    passes[1]!.release();
    for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(passes).toHaveLength(2);
    await ownership.stop();
    expect(listening()).toBe(false);
  });

  it("tells the owner, wherever it runs, of a person's message for a session another process holds", async () => {
    const { ownership, notified } = ownerFixture(false);
    fixtures.push(ownership);
    ownership.human(session, { id: 1, speaker: { kind: 'human', name: 'Bob' } } as ChatMessage);
    await ownership.settled();
    expect(ownership.holds(session.id)).toBe(false);
    expect(notified).toEqual([session.id]);
  });

  it('calls the owner once `!continue` handled here is requested on its lease', async () => {
    const { ownership, notified, leases } = ownerFixture(false);
    fixtures.push(ownership);
    ownership.kick(session.id);
    await ownership.settled();
    expect(leases.kicks).toEqual([session.id]);
    expect(notified).toEqual([session.id]);
  });
});
