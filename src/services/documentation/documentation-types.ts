/** The small interfaces the documentation service depends on, so tests can pass fakes. */
import type { Model } from '@openai/agents';
import type { Logger } from 'pino';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import type { NotionFlags } from '../../notion/create-notion-gateway.ts';
import type { NotionGateway } from '../../notion/notion-gateway.ts';
import type { DocumentsRepository } from '../../repositories/documents-repository.ts';
import type { EmbeddingsRepository } from '../../repositories/embeddings-repository.ts';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { PersonRevisionsRepository } from '../../repositories/person-revisions-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { AdminNotifier } from '../notifications/admin-notifier.ts';

/** The job kinds the documentation service registers on the job worker. */
export const DOCUMENTATION_JOB_KINDS = {
  scribe: 'scribe',
  tldr: 'tldr',
  notionSync: 'notion_sync',
  notionRow: 'notion_session_row',
} as const;

/** The models the Scribe and TLDR run on, and embeddings for recall (the model catalog fits). */
export interface DocumentationModels {
  role(role: 'scribe' | 'tldr'): Model;
  /** Embeddings of texts, or null when no embedding model is available. */
  embed(texts: string[]): Promise<number[][] | null>;
}

/** Settings of the documentation service. */
export interface DocumentationSettings {
  dataDir: string;
  scribeIntervalSeconds: number;
  tldrIntervalSeconds: number;
  /** Attempts of a Notion job that has no retry window (kept for callers that set one). */
  notionMaxRetries?: number;
  /** Backoff cap for Notion retries. */
  notionMaxBackoffMs?: number;
  /** How long document jobs (Notion writes, TLDR) keep retrying through an outage (`NOTION_RETRY_WINDOW_HOURS`). */
  notionRetryWindowMs?: number;
}

/** Everything the documentation service needs. */
export interface DocumentationDependencies {
  settings: DocumentationSettings;
  clock: Clock;
  logger: Logger;
  documents: Pick<DocumentsRepository, 'write' | 'writeAfter' | 'find' | 'findVersion' | 'markSynced' | 'mergeMetadata' | 'resetSynced'>;
  jobs: Pick<JobsRepository, 'enqueue' | 'expedite' | 'debounce' | 'enqueueOrDebounce'>;
  messages: Pick<MessagesRepository, 'listForSession' | 'countBySpeaker'>;
  /** People's edits and deletions of messages a record already holds. */
  revisions: Pick<PersonRevisionsRepository, 'revisedSince'>;
  sessions: Pick<SessionsRepository, 'findById'>;
  embeddings: Pick<EmbeddingsRepository, 'replace' | 'mostSimilar'>;
  models: DocumentationModels;
  prompts: PromptLibrary;
  /** Null without `NOTION_API_KEY`: the local mirror is then the store. */
  notion: NotionGateway | null;
  notifier?: AdminNotifier;
  /** Posts a notice in the session's room (through the delivery outbox, like every other notice). */
  notice?: (sessionId: string, text: string) => Promise<void>;
  /** Once-only flags, so the room is told about a delay once and about its end once. */
  flags?: NotionFlags;
  /** Called after enqueueing work that is due now (the worker's `nudge`). */
  nudge?: () => void;
  /** Adds sections to a document before it is stored (the idea ledger's). */
  appendix?: (sessionId: string, kind: 'record' | 'tldr', markdown: string) => Promise<string>;
  /** Runs the due jobs of one queue now (the worker's `runQueue`), so an urgent Scribe pass can be awaited. */
  runQueue?: (queue: string) => Promise<void>;
}
