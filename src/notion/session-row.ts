/** The "Brainstorm Sessions" database: its schema and a session's row properties. */
import { ALL_STATUSES } from '../core/domain.ts';
import { clipText } from '../core/text-clip.ts';

/** The database's title. */
export const SESSIONS_DATABASE_TITLE = 'Brainstorm Sessions';

/** The properties a session row carries. */
export interface SessionRowValues {
  topic: string;
  status: string;
  conversationId: string;
  participants: string[];
  started: Date | null;
  messages: number;
  tokens: number;
  costUsd: number;
  threadUrl: string | null;
}

/** The data source schema (Notion property definitions) of the sessions database. */
export const SESSIONS_SCHEMA: Record<string, Record<string, unknown>> = {
  Topic: { title: {} },
  Status: { select: { options: ALL_STATUSES.map((name) => ({ name })) } },
  'Conversation ID': { rich_text: {} },
  Participants: { multi_select: { options: [] } },
  Started: { date: {} },
  Messages: { number: { format: 'number' } },
  Tokens: { number: { format: 'number' } },
  Cost: { number: { format: 'dollar' } },
  'Thread URL': { url: {} },
};

function text(content: string, limit = 2000): { text: { content: string } }[] {
  return [{ text: { content: clipText(content, limit) } }];
}

/** Notion property values of a session row (multi-select names may not contain commas). */
export function sessionRowProperties(values: SessionRowValues): Record<string, Record<string, unknown>> {
  return {
    Topic: { title: text(values.topic || 'Untitled session') },
    Status: { select: { name: values.status } },
    'Conversation ID': { rich_text: text(values.conversationId) },
    Participants: {
      multi_select: [...new Set(values.participants.map((name) => clipText(name.replace(/,/g, ' '), 100)))].slice(0, 100).map((name) => ({ name })),
    },
    Started: { date: values.started ? { start: values.started.toISOString() } : null },
    Messages: { number: values.messages },
    Tokens: { number: values.tokens },
    Cost: { number: Math.round(values.costUsd * 10_000) / 10_000 },
    'Thread URL': { url: values.threadUrl },
  };
}
