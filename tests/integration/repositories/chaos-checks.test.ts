/** The chaos run's checks (tests/chaos) find what they are there to find: a check that finds nothing proves nothing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { chaosProblems, type RoomView } from '../../chaos/chaos-checks.ts';
import { openTestDatabase } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');
const person = { kind: 'human', id: 'dana', name: 'Dana' } as const;
const claude = { kind: 'participant', id: 'claude', name: 'Claude' } as const;

describe('the chaos run’s checks', () => {
  let handle: DatabaseHandle;
  let messages: MessagesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase('pglite');
    messages = new MessagesRepository(handle.db);
    const session = { parentId: null, transport: 'local', roomUrl: null, originChannelId: null, originMessageId: null, topic: 't', status: 'active' as const };
    await new SessionsRepository(handle.db).create({ ...session, id: 'ses_1', roomId: 'room_1', createdBy: { id: 'dana', name: 'Dana' } }, now);
  });
  afterEach(async () => handle.close());

  const room = (deliveries: string[], previews: unknown[] = []): RoomView => ({
    roomId: 'room_1',
    sessionId: 'ses_1',
    deliveries: deliveries.map((externalId) => ({ externalId, speaker: claude, content: 'x' })),
    previews,
  });

  it('pass a run where every message was stored once and every answer shows once', async () => {
    await messages.insert({ sessionId: 'ses_1', sourceId: 'local:lcl-chaos-1', speaker: person, role: 'user', text: 'Hi', deliveryStatus: 'received' }, now);
    await messages.insert({ sessionId: 'ses_1', speaker: claude, role: 'assistant', text: 'Hello', deliveryStatus: 'delivered', externalIds: ['lm-1'] }, now);
    const checked = await chaosProblems(handle.db, [{ clientId: 'chaos-1', roomId: 'room_1', accepted: true }], [room(['lm-1'])], now);
    expect(checked).toEqual({ problems: [], answersChecked: 1 });
  });

  it('find a lost message, an answer posted twice or never, a pending one, a preview left and an overdue job', async () => {
    await messages.insert({ sessionId: 'ses_1', speaker: claude, role: 'assistant', text: 'Twice', deliveryStatus: 'delivered', externalIds: ['lm-1'] }, now);
    await messages.insert({ sessionId: 'ses_1', speaker: claude, role: 'assistant', text: 'Never', deliveryStatus: 'delivered', externalIds: ['lm-2'] }, now);
    await messages.insert({ sessionId: 'ses_1', speaker: claude, role: 'assistant', text: 'Waiting', deliveryStatus: 'pending' }, now);
    await new JobsRepository(handle.db).enqueue({ kind: 'deliver_message', payload: {}, runAt: new Date(now.getTime() - 60_000), sessionId: 'ses_1' }, now);
    const sent = [{ clientId: 'chaos-lost', roomId: 'room_1', accepted: true }];
    const { problems } = await chaosProblems(handle.db, sent, [room(['lm-1', 'lm-1'], [{ externalId: 'p-1' }])], now);
    expect(problems).toEqual([
      "a person's message (chaos-lost) was taken but never stored",
      'room room_1: 1 preview(s) left half-written',
      'room room_1: #1 (Claude) shows 2 times in the room (lm-1)',
      'room room_1: #2 (Claude) shows 0 times in the room (lm-2)',
      'room room_1: #3 (Claude) is still pending',
      '1 deliver_message job(s) left overdue after a clean stop',
    ]);
  });
});
