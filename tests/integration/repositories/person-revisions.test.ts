import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { PersonRevisionsRepository } from '../../../src/repositories/person-revisions-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { storeSession } from '../../support/service-doubles.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

describe.each(ENGINES)("people's edits and deletions, on %s", (engine) => {
  let handle: DatabaseHandle;
  let messages: MessagesRepository;
  let revisions: PersonRevisionsRepository;
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const sessionId = `ses_${engine}_${Math.random().toString(36).slice(2, 8)}`;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    messages = new MessagesRepository(handle.db);
    revisions = new PersonRevisionsRepository(handle.db);
    await storeSession(new SessionsRepository(handle.db), clock, { id: sessionId });
  });
  afterEach(async () => handle.close());

  const person = (externalId: string, text: string) =>
    messages.insert(
      {
        sessionId,
        sourceId: `discord:${externalId}`,
        speaker: { kind: 'human', name: 'Bob', id: 'u-bob' },
        role: 'user',
        text,
        deliveryStatus: 'received',
        externalIds: [externalId],
      },
      clock.now(),
    );

  it("finds a person's message by its source, edits it, and removes it from every read", async () => {
    const { message: first } = await person('d-1', 'Flags in a config file?');
    const { message: second } = await person('d-2', 'Launch is March 3rd.');
    await messages.insert(
      { sessionId, speaker: { kind: 'participant', name: 'Claude' }, role: 'assistant', text: 'An answer.', deliveryStatus: 'delivered' },
      clock.now(),
    );
    expect((await revisions.findBySource('discord:d-1'))?.id).toBe(first.id);

    await clock.advance(1000);
    expect(await revisions.revise(first.id, 'Flags in a hosted service?', clock.now())).toMatchObject({ text: 'Flags in a hosted service?', edited: true });
    expect(await revisions.remove(second.id, clock.now())).toMatchObject({ id: second.id });
    expect(await revisions.remove(second.id, clock.now())).toBeNull();
    expect(await revisions.findBySource('discord:d-2')).toBeNull();
    expect((await messages.listForSession(sessionId)).map((message) => message.text)).toEqual(['Flags in a hosted service?', 'An answer.']);
  });

  it('lists what changed since a moment, up to a message, deleted ones marked; never an agent message', async () => {
    const { message: early } = await person('d-1', 'First.');
    const { message: later } = await person('d-2', 'Second.');
    const { message: beyond } = await person('d-3', 'Third.');
    const { message: answer } = await messages.insert(
      { sessionId, speaker: { kind: 'participant', name: 'Claude' }, role: 'assistant', text: 'Mine.', deliveryStatus: 'delivered' },
      clock.now(),
    );
    await revisions.revise(early.id, 'First, edited.', clock.now());
    await clock.advance(1000);
    const since = clock.now();
    await revisions.revise(later.id, 'Second, edited.', clock.now());
    await revisions.remove(beyond.id, clock.now());
    expect(await revisions.revise(answer.id, 'Not a person.', clock.now())).toBeNull();

    const changed = await revisions.revisedSince(sessionId, beyond.id, since);
    expect(changed.map((message) => [message.number, message.text, message.deleted === true])).toEqual([
      [later.number, 'Second, edited.', false],
      [beyond.number, 'Third.', true],
    ]);
    expect(await revisions.revisedSince(sessionId, later.id, since)).toHaveLength(1);
  });
});
