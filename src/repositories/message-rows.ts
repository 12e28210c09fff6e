import { sql, type InsertObject } from 'kysely';
import { toJson, type Database, type MessageJsonRow, type MessageRow } from '../db/schema.ts';
import type { ChatMessage, Citation, DeliveryStatus, Speaker, SpeakerKind } from '../core/domain.ts';
import { isCostSource, type CostSource } from '../core/cost.ts';

/** A message to store. `sourceId` makes storing an incoming message idempotent. */
export interface NewMessage {
  sessionId: string;
  sourceId?: string | null;
  speaker: Speaker;
  role: ChatMessage['role'];
  text: string;
  model?: string | null;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  costSource?: CostSource;
  replyTo?: number[];
  traceId?: string | null;
  spanId?: string | null;
  deliveryStatus: DeliveryStatus;
  externalIds?: string[];
  externalUrl?: string | null;
  /** An answer cut short; kept in the content JSON. */
  interrupted?: boolean;
  /** A person's direct answer to these participants; kept in the content JSON. */
  addressedTo?: string[];
  /** Web pages the answer cites; kept in the content JSON. */
  citations?: Citation[];
  /** Web searches run for the answer; kept in the content JSON. */
  webSearches?: number;
}

/** A stored row as a chat message. */
export function toMessage(row: MessageRow): ChatMessage {
  return {
    id: Number(row.id),
    sessionId: row.session_id,
    number: Number(row.number),
    speaker: { kind: row.speaker_kind as SpeakerKind, name: row.speaker_name, ...(row.speaker_id ? { id: row.speaker_id } : {}) },
    role: row.role as ChatMessage['role'],
    text: row.content.content,
    model: row.model,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costUsd: Number(row.cost_usd),
    ...(isCostSource(row.cost_source) ? { costSource: row.cost_source } : {}),
    replyTo: row.reply_to ?? [],
    traceId: row.trace_id,
    deliveryStatus: row.delivery_status as DeliveryStatus,
    externalIds: row.external_ids ?? [],
    externalUrl: row.external_url,
    createdAt: row.created_at,
    ...(row.content.interrupted ? { interrupted: true } : {}),
    ...(row.content.edited ? { edited: true } : {}),
    ...(row.content.addressedTo?.length ? { addressedTo: row.content.addressedTo } : {}),
    ...(row.content.citations?.length ? { citations: row.content.citations } : {}),
    ...(row.content.webSearches ? { webSearches: row.content.webSearches } : {}),
  };
}

/** A row as `json_agg` returned it as a chat message (its timestamps are ISO text there). */
export function jsonRowToMessage(row: MessageJsonRow): ChatMessage {
  return toMessage({ ...row, created_at: new Date(row.created_at), deleted_at: row.deleted_at === null ? null : new Date(row.deleted_at) });
}

/** The content JSON of a message: its text, and what else it carries (cut short, cited pages). */
function contentOf(message: NewMessage): MessageRow['content'] {
  return {
    role: message.role,
    content: message.text,
    name: message.speaker.name,
    ...(message.interrupted ? { interrupted: true } : {}),
    ...(message.addressedTo?.length ? { addressedTo: message.addressedTo } : {}),
    ...(message.citations?.length ? { citations: message.citations } : {}),
    ...(message.webSearches ? { webSearches: message.webSearches } : {}),
  };
}

/** The row of a new message, numbered next in its session (the number is read in the same statement). */
export function numberedRow(message: NewMessage, now: Date): InsertObject<Database, 'messages'> {
  return {
    session_id: message.sessionId,
    number: sql<number>`(SELECT COALESCE(MAX(number), 0) + 1 FROM messages WHERE session_id = ${message.sessionId})`,
    source_id: message.sourceId ?? null,
    speaker_kind: message.speaker.kind,
    speaker_name: message.speaker.name,
    speaker_id: message.speaker.id ?? null,
    role: message.role,
    content: toJson(contentOf(message)),
    model: message.model ?? null,
    input_tokens: message.inputTokens ?? 0,
    output_tokens: message.outputTokens ?? 0,
    cost_usd: message.costUsd ?? 0,
    cost_source: message.costSource ?? null,
    reply_to: toJson(message.replyTo ?? []),
    trace_id: message.traceId ?? null,
    span_id: message.spanId ?? null,
    delivery_status: message.deliveryStatus,
    external_ids: toJson(message.externalIds ?? []),
    external_url: message.externalUrl ?? null,
    created_at: now,
  };
}
