import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { IdeasRepository } from '../../../src/repositories/ideas-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import type { Idea } from '../../../src/core/idea-ledger.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');

describe.each(ENGINES)('IdeasRepository on %s', (engine) => {
  let handle: DatabaseHandle;
  let ideas: IdeasRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    ideas = new IdeasRepository(handle.db);
    await new SessionsRepository(handle.db).create(
      {
        id: 's1',
        parentId: null,
        transport: 'local',
        roomId: 'r1',
        roomUrl: null,
        originChannelId: null,
        originMessageId: null,
        topic: 't',
        status: 'active',
        createdBy: { id: 'u', name: 'U' },
      },
      now,
    );
  });
  afterEach(async () => handle.close());

  it('stores a pass with its ideas and notes, updates an idea by number, and refuses a pass number twice', async () => {
    const idea: Idea = {
      sessionId: 's1',
      number: 1,
      title: 'Cache',
      summary: 'A cache',
      proposer: 'Claude',
      builders: ['Grok'],
      objectors: [],
      messageIds: [3],
      mentions: 1,
      firstPass: 1,
      embedding: [0.5, 0.25],
    };
    const pass = { sessionId: 's1', number: 1, lastMessageId: 3, messages: 3, candidates: 1, newIdeas: 1, duplicates: 0, newObjections: 0 };
    expect(
      await ideas.savePass(
        { pass, ideas: [idea], notes: [{ sessionId: 's1', kind: 'open_question', text: 'Who?', sides: [], messageIds: [3], firstPass: 1, embedding: null }] },
        now,
      ),
    ).toBe(true);
    expect(await ideas.savePass({ pass, ideas: [], notes: [] }, now)).toBe(false);
    await ideas.savePass(
      {
        pass: { ...pass, number: 2, lastMessageId: 5, newIdeas: 0, duplicates: 1 },
        ideas: [{ ...idea, objectors: ['Alice'], messageIds: [3, 5], mentions: 2 }],
        notes: [],
      },
      now,
    );
    const ledger = await ideas.ledger('s1');
    expect(ledger.ideas).toEqual([{ ...idea, objectors: ['Alice'], messageIds: [3, 5], mentions: 2 }]);
    expect(ledger.notes).toMatchObject([{ kind: 'open_question', text: 'Who?', messageIds: [3] }]);
    expect(ledger.passes.map((entry) => [entry.number, entry.lastMessageId, entry.duplicates])).toEqual([
      [1, 3, 0],
      [2, 5, 1],
    ]);
    expect(ledger.passes[0]!.createdAt).toEqual(now);
    expect(ledger.notes[0]).toEqual({ sessionId: 's1', kind: 'open_question', text: 'Who?', sides: [], messageIds: [3], firstPass: 1, embedding: null });
  });

  it('reads an empty ledger, and keeps one session’s ledger out of another’s', async () => {
    expect(await ideas.ledger('s1')).toEqual({ ideas: [], notes: [], passes: [] });
    expect(await ideas.ledger('nobody')).toEqual({ ideas: [], notes: [], passes: [] });
  });
});
