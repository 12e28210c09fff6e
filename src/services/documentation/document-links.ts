/** The links a closing message gives to a session's documents: Notion's pages, and the console's own view. */
import type { Session } from '../../core/domain.ts';
import type { DocumentLink } from '../../core/service-ports.ts';

/** The Notion pages of a session, as the documentation service finds them (null: not written or no Notion). */
export interface NotionPageLinks {
  row: string | null;
  record: string | null;
  tldr: string | null;
}

/** What the console and the mirror add: the console's address and the path of each markdown file. */
export interface LocalDocuments {
  /** The console's base URL (e.g. `http://127.0.0.1:7420`), or null when none is known. */
  consoleUrl: string | null;
  /** The path of a session's mirrored markdown document. */
  pathOf(sessionId: string, kind: 'record' | 'tldr'): string;
  /** The documents the session has: a link to one it lacks (its model failed) would lead nowhere. */
  has: Readonly<Record<'record' | 'tldr', boolean>>;
}

/** The console's base URL: from a local room's address, else the configured one. */
export function consoleUrlOf(session: Pick<Session, 'roomUrl'>, configured: string | null): string | null {
  const marker = session.roomUrl?.indexOf('/#/') ?? -1;
  return session.roomUrl && marker > 0 ? session.roomUrl.slice(0, marker) : configured;
}

/** Every link of a closing message: Notion's pages when it has them, and the console's documents it has, with their files. */
export function documentLinksOf(session: Pick<Session, 'id' | 'roomUrl'>, notion: NotionPageLinks, local: LocalDocuments): DocumentLink[] {
  const links: DocumentLink[] = [
    { label: 'Notion page (record and TLDR)', url: notion.row },
    { label: 'Detailed record in Notion', url: notion.record },
    { label: 'TLDR in Notion', url: notion.tldr },
  ].flatMap((link) => (link.url ? [{ label: link.label, url: link.url }] : []));
  const base = consoleUrlOf(session, local.consoleUrl);
  if (!base) return links;
  const view = (kind: 'record' | 'tldr') => `${base}/#/sessions/${encodeURIComponent(session.id)}/documents/${kind}`;
  const documents = [
    { kind: 'record' as const, label: 'Detailed record' },
    { kind: 'tldr' as const, label: 'TLDR' },
  ].filter((document) => local.has[document.kind]);
  return [...links, ...documents.map(({ kind, label }) => ({ label, url: view(kind), file: local.pathOf(session.id, kind) }))];
}
