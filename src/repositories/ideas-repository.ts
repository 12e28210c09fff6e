import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import { toJson, type Database, type JsonRow } from '../db/schema.ts';
import type { Idea, LedgerNote, LedgerPass, SessionLedger } from '../core/idea-ledger.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** `ideas` (migration 0010). */
interface IdeasTable {
  id: Generated<number>;
  session_id: string;
  number: number;
  title: string;
  summary: string;
  proposer: string;
  builders: Json<string[]>;
  objectors: Json<string[]>;
  message_ids: Json<number[]>;
  mentions: number;
  first_pass: number;
  embedding: number[] | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `idea_notes` (migration 0010): disagreements and open questions. */
interface IdeaNotesTable {
  id: Generated<number>;
  session_id: string;
  kind: string;
  text: string;
  sides: Json<LedgerNote['sides']>;
  message_ids: Json<number[]>;
  first_pass: number;
  embedding: number[] | null;
  created_at: Timestamp;
}

/** `idea_passes` (migration 0010). */
interface IdeaPassesTable {
  id: Generated<number>;
  session_id: string;
  number: number;
  last_message_id: ColumnType<number | string, number, number>;
  messages: number;
  candidates: number;
  new_ideas: number;
  duplicates: number;
  new_objections: number;
  created_at: Timestamp;
}

/** The tables this repository adds to the schema (kept here so `schema.ts` stays untouched). */
export type IdeaTables = {
  ideas: IdeasTable;
  idea_notes: IdeaNotesTable;
  idea_passes: IdeaPassesTable;
};

/** What one pass writes, in one transaction. */
export interface PassWrite {
  pass: Omit<LedgerPass, 'createdAt'>;
  /** Ideas to insert or (by number) replace. */
  ideas: Idea[];
  notes: LedgerNote[];
}

const vector = (embedding: number[] | null): number[] | null => (embedding ? embedding.map(Number) : null);

/** The ledger statement's one row. */
interface LedgerRows {
  ideas: JsonRow<IdeasTable>[];
  notes: JsonRow<IdeaNotesTable>[];
  passes: JsonRow<IdeaPassesTable>[];
}

function toIdea(row: JsonRow<IdeasTable>): Idea {
  return {
    sessionId: row.session_id,
    number: row.number,
    title: row.title,
    summary: row.summary,
    proposer: row.proposer,
    builders: row.builders,
    objectors: row.objectors,
    messageIds: row.message_ids.map(Number),
    mentions: row.mentions,
    firstPass: row.first_pass,
    embedding: vector(row.embedding),
  };
}

function toNote(row: JsonRow<IdeaNotesTable>): LedgerNote {
  return {
    sessionId: row.session_id,
    kind: row.kind === 'open_question' ? 'open_question' : 'disagreement',
    text: row.text,
    sides: row.sides,
    messageIds: row.message_ids.map(Number),
    firstPass: row.first_pass,
    embedding: vector(row.embedding),
  };
}

function toPass(row: JsonRow<IdeaPassesTable>): LedgerPass {
  return {
    sessionId: row.session_id,
    number: row.number,
    lastMessageId: Number(row.last_message_id),
    messages: row.messages,
    candidates: row.candidates,
    newIdeas: row.new_ideas,
    duplicates: row.duplicates,
    newObjections: row.new_objections,
    createdAt: new Date(row.created_at),
  };
}

/** The idea ledger of every session. */
export class IdeasRepository {
  private readonly db: Kysely<Database & IdeaTables>;

  constructor(db: Kysely<Database>) {
    this.db = db.withTables<IdeaTables>();
  }

  /**
   * Everything recorded for a session, ideas by number, notes and passes in order. One statement, not three: the
   * ledger is read after every round, so its round trips are paid per turn.
   */
  async ledger(sessionId: string): Promise<SessionLedger> {
    const { rows } = await sql<LedgerRows>`select
        (select coalesce(json_agg(idea order by idea.number), '[]'::json) from ideas as idea where idea.session_id = ${sessionId}) as ideas,
        (select coalesce(json_agg(note order by note.id), '[]'::json) from idea_notes as note where note.session_id = ${sessionId}) as notes,
        (select coalesce(json_agg(pass order by pass.number), '[]'::json) from idea_passes as pass where pass.session_id = ${sessionId}) as passes`.execute(
      this.db,
    );
    const row = rows[0] ?? { ideas: [], notes: [], passes: [] };
    return { ideas: row.ideas.map(toIdea), notes: row.notes.map(toNote), passes: row.passes.map(toPass) };
  }

  /**
   * Stores a pass with the ideas it created or changed and the notes it added. Returns false when another
   * process already stored a pass with that number (the unique key decides).
   */
  async savePass(write: PassWrite, now: Date): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const { pass } = write;
      const inserted = await trx
        .insertInto('idea_passes')
        .values({
          session_id: pass.sessionId,
          number: pass.number,
          last_message_id: pass.lastMessageId,
          messages: pass.messages,
          candidates: pass.candidates,
          new_ideas: pass.newIdeas,
          duplicates: pass.duplicates,
          new_objections: pass.newObjections,
          created_at: now,
        })
        .onConflict((conflict) => conflict.columns(['session_id', 'number']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      // The session carries its last pass number, so a review after a round learns from the session it already has
      // whether the ledger changed (greatest: passes of one session may commit out of order).
      await trx
        .updateTable('sessions')
        .set({ ledger_passes: sql<number>`greatest(ledger_passes, ${pass.number})` })
        .where('id', '=', pass.sessionId)
        .execute();
      for (const idea of write.ideas) {
        const values = {
          title: idea.title,
          summary: idea.summary,
          proposer: idea.proposer,
          builders: toJson(idea.builders),
          objectors: toJson(idea.objectors),
          message_ids: toJson(idea.messageIds),
          mentions: idea.mentions,
          embedding: idea.embedding ? [...idea.embedding] : null,
          updated_at: now,
        };
        await trx
          .insertInto('ideas')
          .values({ session_id: idea.sessionId, number: idea.number, first_pass: idea.firstPass, created_at: now, ...values })
          .onConflict((conflict) => conflict.columns(['session_id', 'number']).doUpdateSet(values))
          .execute();
      }
      for (const note of write.notes) {
        await trx
          .insertInto('idea_notes')
          .values({
            session_id: note.sessionId,
            kind: note.kind,
            text: note.text,
            sides: toJson(note.sides),
            message_ids: toJson(note.messageIds),
            first_pass: note.firstPass,
            embedding: note.embedding ? [...note.embedding] : null,
            created_at: now,
          })
          .execute();
      }
      return true;
    });
  }
}
