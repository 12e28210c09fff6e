import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { ScriptedModel } from '@openai/agents/testing';
import { createModeratorAgent } from '../../../src/agents/moderator/moderator-agent.ts';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';
import type { Session } from '../../../src/core/domain.ts';
import type { Idea } from '../../../src/core/idea-ledger.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { IdeasRepository } from '../../../src/repositories/ideas-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { IdeaLedgerService, type IdeaLedgerDependencies } from '../../../src/services/ideas/idea-ledger-service.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');
/** Convergence never closes (0), so a review can only invite dissent; four agreeing reactions make it do so. */
const SETTINGS = { intervalSeconds: 60, convergenceRounds: 0, duplicateSimilarity: 0.9, agreementThreshold: 0.8, roleRotationRounds: 0 };
const AGREED: Idea = {
  sessionId: 's1',
  number: 1,
  title: 'Cache',
  summary: 'A cache in front of the API',
  proposer: 'Claude',
  builders: ['Grok', 'ChatGPT', 'Alice', 'Bob'],
  objectors: [],
  messageIds: [3],
  mentions: 1,
  firstPass: 1,
  embedding: null,
};
const PASS = { sessionId: 's1', number: 1, lastMessageId: 3, messages: 3, candidates: 1, newIdeas: 1, duplicates: 0, newObjections: 0 };

describe.each(ENGINES)('the idea ledger review after a round on %s', (engine) => {
  let handle: DatabaseHandle;
  let sessions: SessionsRepository;
  let ideas: IdeasRepository;
  let ledgerReads: number;
  let posts: string[];

  /** The ledger service with what a review touches, reading the real repositories (its ledger reads counted). */
  const service = () => {
    const deps: Pick<IdeaLedgerDependencies, 'repository' | 'sessions' | 'settings' | 'room' | 'logger' | 'prompts' | 'moderator'> = {
      repository: {
        ledger: (sessionId) => {
          ledgerReads += 1;
          return ideas.ledger(sessionId);
        },
        savePass: (write, at) => ideas.savePass(write, at),
      },
      sessions,
      settings: () => SETTINGS,
      room: {
        postAsModerator: async (_session, content) => void posts.push(content),
        endSession: async () => undefined,
        participants: () => ['Claude', 'Grok', 'ChatGPT'],
      },
      logger: pino({ level: 'silent' }),
      prompts: new PromptLibrary(),
      moderator: createModeratorAgent({ model: new ScriptedModel([]), prompts: new PromptLibrary() }),
    };
    return new IdeaLedgerService(deps as IdeaLedgerDependencies);
  };
  const current = async (): Promise<Session> => (await sessions.findById('s1')) as Session;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    sessions = new SessionsRepository(handle.db);
    ideas = new IdeasRepository(handle.db);
    ledgerReads = 0;
    posts = [];
    const base = { parentId: null, transport: 'local', roomUrl: null, originChannelId: null, originMessageId: null, topic: 't', status: 'active' as const };
    await sessions.create({ ...base, id: 's1', roomId: 'r1', createdBy: { id: 'u', name: 'U' } }, now);
    await sessions.create({ ...base, id: 's2', roomId: 'r2', createdBy: { id: 'u', name: 'U' } }, now);
  });
  afterEach(async () => handle.close());

  it('the session carries its last pass number, written with the pass, never moved back', async () => {
    expect((await current()).ledgerPasses).toBe(0);
    await ideas.savePass({ pass: { ...PASS, number: 2 }, ideas: [], notes: [] }, now);
    // A pass that commits after a later one (two processes) leaves the later number.
    await ideas.savePass({ pass: PASS, ideas: [], notes: [] }, now);
    expect((await current()).ledgerPasses).toBe(2);
    expect((await sessions.findById('s2'))?.ledgerPasses).toBe(0);
  });

  it('reads the ledger only when a pass came since its last review, and decides as a read would', async () => {
    const ledger = service();
    // No pass yet: nothing to review, nothing read.
    expect(await ledger.afterRound(await current())).toBe('nothing');
    expect(ledgerReads).toBe(0);

    await ideas.savePass({ pass: PASS, ideas: [AGREED], notes: [] }, now);
    expect(await ledger.afterRound(await current())).toBe('invited');
    expect(ledgerReads).toBe(1);
    expect(posts).toHaveLength(1);
    // Rounds with the same pass: the same ledger, so no read and no second invitation.
    expect(await ledger.afterRound(await current())).toBe('nothing');
    expect(await ledger.afterRound(await current())).toBe('nothing');
    expect(ledgerReads).toBe(1);

    // A new pass (here with an objection, so the room no longer only agrees) is read once.
    await ideas.savePass({ pass: { ...PASS, number: 2, lastMessageId: 5 }, ideas: [{ ...AGREED, objectors: ['Alice', 'Bob', 'Dan'] }], notes: [] }, now);
    expect(await ledger.afterRound(await current())).toBe('nothing');
    expect(await ledger.afterRound(await current())).toBe('nothing');
    expect(ledgerReads).toBe(2);
    expect(posts).toHaveLength(1);

    // A process that starts knows no review: it reads once.
    const restarted = service();
    expect(await restarted.afterRound(await current())).toBe('nothing');
    expect(await restarted.afterRound(await current())).toBe('nothing');
    expect(ledgerReads).toBe(3);
  });

  it('reads again for a session that was not active when it was reviewed', async () => {
    const ledger = service();
    await ideas.savePass({ pass: PASS, ideas: [AGREED], notes: [] }, now);
    await sessions.update('s1', { status: 'paused' }, now);
    expect(await ledger.afterRound(await current())).toBe('nothing');
    await sessions.update('s1', { status: 'active' }, now);
    expect(await ledger.afterRound(await current())).toBe('invited');
    expect(ledgerReads).toBe(2);
  });
});
