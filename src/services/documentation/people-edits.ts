/**
 * People's edits to the record in Notion are kept. A team edits the Detailed record page as it edits any page; the
 * Scribe then writes a new version, built on the one it wrote before. Before the sync job replaces the page, it asks
 * who edited it last: when a person did (and the page says something else than the version we last wrote there),
 * it writes nothing and flags the record. The next Scribe pass takes the person's version up as its base, carrying
 * the metadata of the version they edited, so the messages since are worked into their text.
 */
import type { MarkdownMirror } from '../../notion/markdown-mirror.ts';
import type { NotionGateway } from '../../notion/notion-gateway.ts';
import type { StoredDocument } from '../../repositories/documents-repository.ts';
import { NotionRequestError, NotionThrottledError } from '../../notion/notion-errors.ts';
import type { DocumentationDependencies } from './documentation-types.ts';

/** Metadata flag: a person edited the record in Notion; the next Scribe pass takes their version up. */
export const PEOPLE_EDITED_IN_NOTION = 'peopleEditedInNotion';
/** Metadata of a version taken up from Notion: the Scribe is told to keep what people wrote. */
export const TAKEN_FROM_NOTION = 'editedInNotion';

type PeopleEditsDependencies = Pick<DocumentationDependencies, 'documents' | 'logger'>;

/** Two renderings of a document say the same when they differ only in trailing spaces and blank lines. */
function sameText(left: string, right: string): boolean {
  const normal = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '')
      .join('\n');
  return normal(left) === normal(right);
}

/**
 * The person-edited text of the record's page, when a person edited it since the version we last wrote there
 * (`document.syncedVersion`); null when nobody did, the page is gone, or it says what that version says.
 */
export async function peoplesVersion(
  deps: PeopleEditsDependencies,
  notion: NotionGateway,
  document: StoredDocument,
  signal?: AbortSignal,
): Promise<{ text: string; editedVersion: number; metadata: Record<string, unknown> } | null> {
  if (document.kind !== 'record' || document.syncedVersion === 0) return null;
  if (!(await notion.documentEditedByPeople(document.sessionId, 'record', signal))) return null;
  const text = await notion.readDocument(document.sessionId, 'record', signal);
  if (text === null || !text.trim()) return null;
  const edited = await deps.documents.findVersion(document.id, document.syncedVersion);
  if (edited && sameText(text, edited.content)) return null;
  return { text, editedVersion: document.syncedVersion, metadata: edited?.metadata ?? {} };
}

/** What taking a person's version up needs from the service: storing it as the newest version, already in Notion. */
export type AdoptRecord = (sessionId: string, markdown: string, metadata: Record<string, unknown>) => Promise<StoredDocument>;

/** Stores what Notion holds as the newest record version, already synced, and mirrors it (`!refresh`, people's edits). */
export async function adoptFromNotion(
  deps: Pick<DocumentationDependencies, 'documents' | 'clock'>,
  mirror: Pick<MarkdownMirror, 'write'>,
  sessionId: string,
  markdown: string,
  metadata: Record<string, unknown>,
): Promise<StoredDocument> {
  const now = deps.clock.now();
  const stored = await deps.documents.write(sessionId, 'record', markdown, { ...metadata, writtenAt: now.toISOString() }, now);
  await deps.documents.markSynced(stored.id, stored.version, null, now);
  await mirror.write(sessionId, 'record', markdown);
  return stored;
}

/**
 * At the start of a Scribe pass on a flagged record: the person's version becomes the newest local one (synced: it is
 * what Notion holds), with the metadata of the version they edited, so the pass covers the messages since. Returns
 * it, or null when there is nothing to take up (the flag is then cleared) or Notion could not be read (the flag
 * stays; the sync job would flag the record again anyway).
 */
export async function takeUpPeoplesEdits(
  deps: Pick<DocumentationDependencies, 'documents' | 'logger' | 'notion'>,
  previous: StoredDocument,
  adopt: AdoptRecord,
  signal: AbortSignal,
): Promise<StoredDocument | null> {
  if (!deps.notion || previous.metadata[PEOPLE_EDITED_IN_NOTION] !== true) return null;
  let version: Awaited<ReturnType<typeof peoplesVersion>>;
  try {
    version = await peoplesVersion(deps, deps.notion, previous, signal);
  } catch (error) {
    if (!(error instanceof NotionRequestError || error instanceof NotionThrottledError)) throw error;
    deps.logger.warn({ sessionId: previous.sessionId, err: error.message }, 'could not read the record people edited in Notion; the pass goes on');
    return null;
  }
  if (!version) {
    await deps.documents.mergeMetadata(previous.id, { [PEOPLE_EDITED_IN_NOTION]: false });
    return null;
  }
  deps.logger.info({ sessionId: previous.sessionId, editedVersion: version.editedVersion }, 'people edited the record in Notion; their version is the base');
  return adopt(previous.sessionId, version.text, { ...version.metadata, source: 'notion', [TAKEN_FROM_NOTION]: true });
}
