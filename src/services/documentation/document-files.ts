/**
 * A session's documents as Markdown files in its room. Without Notion, a Discord team has no other way to reach the
 * record: the closing links to the console and the mirror on the bot's own machine. So the wrap-up hands them over.
 */
import type { Session, Speaker } from '../../core/domain.ts';
import type { OutgoingFile } from '../../core/ports.ts';
import type { DocumentKind, DocumentsRepository } from '../../repositories/documents-repository.ts';

/** The file name of each document. */
export const DOCUMENT_FILE_NAMES: Record<DocumentKind, string> = { record: 'detailed-record.md', tldr: 'tldr.md' };

const SCRIBE: Speaker = { kind: 'scribe', name: 'Scribe' };

/** A room that receives documents as files: a Discord thread (the console shows them on the session's page). */
export function receivesDocumentFiles(session: Pick<Session, 'transport'>): boolean {
  return session.transport === 'discord';
}

/** The kinds, among `kinds`, whose documents hold something, with their newest text. */
async function writtenDocuments(documents: Pick<DocumentsRepository, 'find'>, sessionId: string, kinds: DocumentKind[]) {
  const found = await Promise.all(kinds.map(async (kind) => ({ kind, content: (await documents.find(sessionId, kind))?.content ?? '' })));
  return found.filter((document) => document.content.trim() !== '');
}

/** The newest versions of a session's documents as files (the ones written so far). */
export async function documentFiles(documents: Pick<DocumentsRepository, 'find'>, sessionId: string, kinds: DocumentKind[]): Promise<OutgoingFile[]> {
  return (await writtenDocuments(documents, sessionId, kinds)).map(({ kind, content }) => ({ name: DOCUMENT_FILE_NAMES[kind], content }));
}

/** What handing the documents over needs. */
export interface DocumentHandOverDependencies {
  documents: Pick<DocumentsRepository, 'find'>;
  delivery: { post(session: Session, speaker: Speaker, text: string, options: { attachDocuments: DocumentKind[] }): Promise<unknown> };
  /** True when the documents are in Notion, where the closing links to them. */
  notionConfigured: boolean;
}

/** Posts a finished session's record and TLDR as files in a Discord room without Notion. */
export async function handOverDocuments(dependencies: DocumentHandOverDependencies, session: Session): Promise<void> {
  if (dependencies.notionConfigured || !receivesDocumentFiles(session)) return;
  const kinds = (await writtenDocuments(dependencies.documents, session.id, ['record', 'tldr'])).map((document) => document.kind);
  if (kinds.length === 0) return;
  const named = kinds.map((kind) => (kind === 'record' ? 'the detailed record' : 'the TLDR')).join(' and ');
  await dependencies.delivery.post(session, SCRIBE, `Here are ${named} of this session, as Markdown files to keep.`, { attachDocuments: kinds });
}
