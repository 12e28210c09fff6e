import { sql, type Kysely } from 'kysely';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { toJson, type Database, type SessionJsonRow, type SessionRow } from '../db/schema.ts';
import type { ModerationState, PlannerState, Session, SessionPlan, SessionRepeats, SessionStatus } from '../core/domain.ts';

/** What a new session needs. */
export interface NewSession {
  id: string;
  parentId: string | null;
  transport: string;
  roomId: string;
  roomUrl: string | null;
  originChannelId: string | null;
  originMessageId: string | null;
  topic: string;
  status: SessionStatus;
  createdBy: { id: string; name: string };
}

/** Fields a session update may change. */
export interface SessionChanges {
  status?: SessionStatus;
  plan?: SessionPlan | null;
  plannerState?: PlannerState;
  moderationState?: ModerationState;
  disabledParticipants?: string[];
  aiRoundsSinceHuman?: number;
  endReason?: string | null;
  startedAt?: Date | null;
  endedAt?: Date | null;
  roomUrl?: string | null;
  clockStartedAt?: Date | null;
  pausedAt?: Date | null;
  repeats?: SessionRepeats;
}

const EMPTY_PLANNER: PlannerState = { questions: [], answers: [], revisionRequests: [], questionRounds: 0 };
const EMPTY_MODERATION: ModerationState = { driftWarnings: 0, lastCheckAtMessage: 0 };

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    parentId: row.parent_id,
    transport: row.transport,
    roomId: row.room_id,
    roomUrl: row.room_url,
    originChannelId: row.origin_channel_id,
    topic: row.topic,
    status: row.status as SessionStatus,
    createdBy: { id: row.created_by_id, name: row.created_by_name },
    plan: (row.plan as SessionPlan | null) ?? null,
    plannerState: { ...EMPTY_PLANNER, ...(row.planner_state as Partial<PlannerState>) },
    moderationState: { ...EMPTY_MODERATION, ...(row.moderation_state as Partial<ModerationState>) },
    disabledParticipants: row.disabled_participants ?? [],
    messageCount: Number(row.message_count),
    totalTokens: Number(row.total_tokens),
    totalCostUsd: Number(row.total_cost_usd),
    aiRoundsSinceHuman: Number(row.ai_rounds_since_human),
    endReason: row.end_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    clockStartedAt: row.clock_started_at,
    pausedAt: row.paused_at,
    ledgerPasses: Number(row.ledger_passes),
    ...repeatsOf(row.repeat_state),
  };
}

/** The session's repeat state, when anyone rests or was announced (`{}` otherwise, as a new session's column holds). */
function repeatsOf(value: unknown): { repeats?: SessionRepeats } {
  const stored = (value ?? {}) as Partial<SessionRepeats>;
  const repeats = { resting: stored.resting ?? [], announced: stored.announced ?? [] };
  return repeats.resting.length > 0 || repeats.announced.length > 0 ? { repeats } : {};
}

const dateOrNull = (value: string | null): Date | null => (value === null ? null : new Date(value));

/** A session from its row as `to_jsonb` returns it (timestamps as ISO text), e.g. from a statement that wrote it. */
export function jsonRowToSession(row: SessionJsonRow): Session {
  return toSession({
    ...row,
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
    started_at: dateOrNull(row.started_at),
    ended_at: dateOrNull(row.ended_at),
    deleted_at: dateOrNull(row.deleted_at),
    clock_started_at: dateOrNull(row.clock_started_at),
    paused_at: dateOrNull(row.paused_at),
  });
}

/** Read at every round and delivery: prepared once (see PreparedStatement). */
const FIND_BY_ID = new PreparedStatement(
  'session by id',
  (db: Kysely<Database>, id: string) => db.selectFrom('sessions').selectAll().where('id', '=', id).where('deleted_at', 'is', null),
  (id) => [id],
);

/** Sessions: one row per brainstorm. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a session. */
  async create(session: NewSession, now: Date): Promise<Session> {
    const row = await this.db
      .insertInto('sessions')
      .values({
        id: session.id,
        parent_id: session.parentId,
        transport: session.transport,
        room_id: session.roomId,
        room_url: session.roomUrl,
        origin_channel_id: session.originChannelId,
        origin_message_id: session.originMessageId,
        topic: session.topic,
        status: session.status,
        created_by_id: session.createdBy.id,
        created_by_name: session.createdBy.name,
        plan: toJson(null),
        planner_state: toJson(EMPTY_PLANNER),
        moderation_state: toJson(EMPTY_MODERATION),
        disabled_participants: toJson([]),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSession(row);
  }

  /** A session by id, or null. */
  async findById(id: string): Promise<Session | null> {
    const row = (await FIND_BY_ID.execute(this.db, id)).rows[0];
    return row ? toSession(row) : null;
  }

  /** The session living in a room of a transport, or null. */
  async findByRoom(transport: string, roomId: string): Promise<Session | null> {
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('transport', '=', transport)
      .where('room_id', '=', roomId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toSession(row) : null;
  }

  /** Applies changes; with `expectedStatus`, only if the session is still in that state (returns null otherwise). */
  async update(id: string, changes: SessionChanges, now: Date, expectedStatus?: SessionStatus[]): Promise<Session | null> {
    let query = this.db
      .updateTable('sessions')
      .set({
        updated_at: now,
        ...(changes.status !== undefined && { status: changes.status }),
        ...(changes.plan !== undefined && { plan: toJson(changes.plan) }),
        ...(changes.plannerState !== undefined && { planner_state: toJson(changes.plannerState) }),
        ...(changes.moderationState !== undefined && { moderation_state: toJson(changes.moderationState) }),
        ...(changes.disabledParticipants !== undefined && { disabled_participants: toJson(changes.disabledParticipants) }),
        ...(changes.aiRoundsSinceHuman !== undefined && { ai_rounds_since_human: changes.aiRoundsSinceHuman }),
        ...(changes.endReason !== undefined && { end_reason: changes.endReason }),
        ...(changes.startedAt !== undefined && { started_at: changes.startedAt }),
        ...(changes.endedAt !== undefined && { ended_at: changes.endedAt }),
        ...(changes.roomUrl !== undefined && { room_url: changes.roomUrl }),
        ...(changes.clockStartedAt !== undefined && { clock_started_at: changes.clockStartedAt }),
        ...(changes.pausedAt !== undefined && { paused_at: changes.pausedAt }),
        ...(changes.repeats !== undefined && { repeat_state: toJson(changes.repeats) }),
      })
      .where('id', '=', id);
    if (expectedStatus) query = query.where('status', 'in', expectedStatus);
    const row = await query.returningAll().executeTakeFirst();
    return row ? toSession(row) : null;
  }

  /** Adds a model call's tokens and cost to the session's running totals, when no stored message carries them. */
  async addModelUsage(id: string, usage: { inputTokens: number; outputTokens: number; costUsd: number }, now: Date): Promise<void> {
    await this.addUsage(id, { messages: 0, tokens: usage.inputTokens + usage.outputTokens, costUsd: usage.costUsd }, now);
  }

  /** Adds a message's usage to the session's running totals. */
  async addUsage(id: string, usage: { messages: number; tokens: number; costUsd: number }, now: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({
        message_count: sql`message_count + ${usage.messages}`,
        total_tokens: sql`total_tokens + ${usage.tokens}`,
        total_cost_usd: sql`total_cost_usd + ${usage.costUsd}`,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** A person's counted message in a discussion: one more message, and the AI rounds start counting again. Returns the session as it left it. */
  async countHumanTurn(id: string, now: Date): Promise<Session | null> {
    const row = await this.db
      .updateTable('sessions')
      .set({ message_count: sql`message_count + 1`, ai_rounds_since_human: 0, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toSession(row) : null;
  }

  /** Resets the usage counters (admin `!reset`). */
  async resetUsage(id: string, now: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ message_count: 0, total_tokens: 0, total_cost_usd: 0, ai_rounds_since_human: 0, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Sessions in any of `statuses` (e.g. to resume at start-up). */
  async listByStatus(statuses: SessionStatus[]): Promise<Session[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('status', 'in', statuses)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .execute();
    return rows.map(toSession);
  }

  /** The most recent sessions, newest first. */
  async listRecent(limit: number): Promise<Session[]> {
    const rows = await this.db.selectFrom('sessions').selectAll().where('deleted_at', 'is', null).orderBy('created_at', 'desc').limit(limit).execute();
    return rows.map(toSession);
  }
}
