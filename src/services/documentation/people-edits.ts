/**
 * People's edits to the record and the TLDR in Notion are kept. A team edits those pages as it edits any page; the
 * Scribe (or the TLDR agent) then writes a new version, built on the one it wrote before. Before the sync job replaces
 * a page, it asks who edited it last: when a person did (and the page says something else than the version we last
 * wrote there), it writes nothing and flags the document. The next pass takes the person's version up as its base,
 * carrying the metadata of the version they edited, so what was said since is worked into their text.
 */
import type { MarkdownMirror } from '../../notion/markdown-mirror.ts';
import type { NotionGateway } from '../../notion/notion-gateway.ts';
import type { StoredDocument } from '../../repositories/documents-repository.ts';
import { NotionRequestError, NotionThrottledError } from '../../notion/notion-errors.ts';
import type { DocumentationDependencies } from './documentation-types.ts';

/** Metadata flag: a person edited the document in Notion; the next pass takes their version up. */
export const PEOPLE_EDITED_IN_NOTION = 'peopleEditedInNotion';
/** Metadata of a version taken up from Notion: the agent is told to keep what people wrote. */
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
 * The person-edited text of a document's page, when a person edited it since the version we last wrote there
 * (`document.syncedVersion`); null when nobody did, the page is gone, or it says what that version says.
 */
export async function peoplesVersion(
  deps: PeopleEditsDependencies,
  notion: NotionGateway,
  document: StoredDocument,
  signal?: AbortSignal,
): Promise<{ text: string; editedVersion: number; metadata: Record<string, unknown> } | null> {
  if (document.syncedVersion === 0) return null;
  if (!(await notion.documentEditedByPeople(document.sessionId, document.kind, signal))) return null;
  const text = await notion.readDocument(document.sessionId, document.kind, signal);
  if (text === null || !text.trim()) return null;
  const edited = await deps.documents.findVersion(document.id, document.syncedVersion);
  if (edited && sameText(text, edited.content)) return null;
  return { text, editedVersion: document.syncedVersion, metadata: edited?.metadata ?? {} };
}

/**
 * What taking a person's version up needs from the service: storing it as the newest version, already in Notion, when
 * the newest is still `after` (the version the person's edit was weighed against); null when a newer one came first.
 */
export type AdoptDocument = (
  sessionId: string,
  kind: 'record' | 'tldr',
  markdown: string,
  metadata: Record<string, unknown>,
  after: number,
) => Promise<StoredDocument | null>;

/**
 * Stores what Notion holds as the newest version, already synced, and mirrors it (`!refresh`, people's edits), unless a
 * version newer than `after` was written meanwhile (a Scribe pass): that one stays, and its sync meets the person's edit.
 */
export async function adoptFromNotion(
  deps: Pick<DocumentationDependencies, 'documents' | 'clock'>,
  mirror: Pick<MarkdownMirror, 'write'>,
  sessionId: string,
  kind: 'record' | 'tldr',
  markdown: string,
  metadata: Record<string, unknown>,
  after: number,
): Promise<StoredDocument | null> {
  const now = deps.clock.now();
  const stored = await deps.documents.writeAfter(sessionId, kind, markdown, { ...metadata, writtenAt: now.toISOString() }, now, after);
  if (!stored) return null;
  await deps.documents.markSynced(stored.id, stored.version, null, now);
  await mirror.write(sessionId, kind, markdown);
  return stored;
}

/**
 * At the start of a pass on a flagged document (or on any, with `lookup: 'always'`): the person's version becomes the
 * newest local one (synced: it is what Notion holds), with the metadata of the version they edited, so the pass covers
 * what was said since. Returns it, or null when there is nothing to take up (the flag is then cleared) or Notion could
 * not be read (the flag stays; the sync job would flag the document again anyway).
 */
export async function takeUpPeoplesEdits(
  deps: Pick<DocumentationDependencies, 'documents' | 'logger' | 'notion'>,
  previous: StoredDocument,
  adopt: AdoptDocument,
  signal: AbortSignal,
  lookup: 'flagged' | 'always' = 'flagged',
): Promise<StoredDocument | null> {
  const flagged = previous.metadata[PEOPLE_EDITED_IN_NOTION] === true;
  if (!deps.notion || (lookup === 'flagged' && !flagged)) return null;
  let version: Awaited<ReturnType<typeof peoplesVersion>>;
  try {
    version = await peoplesVersion(deps, deps.notion, previous, signal);
  } catch (error) {
    if (!(error instanceof NotionRequestError || error instanceof NotionThrottledError)) throw error;
    deps.logger.warn(
      { sessionId: previous.sessionId, kind: previous.kind, err: error.message },
      'could not read the page people edited in Notion; the pass goes on',
    );
    return null;
  }
  if (!version) {
    if (flagged) await deps.documents.mergeMetadata(previous.id, { [PEOPLE_EDITED_IN_NOTION]: false });
    return null;
  }
  deps.logger.info(
    { sessionId: previous.sessionId, kind: previous.kind, editedVersion: version.editedVersion },
    'people edited the page in Notion; their version is the base',
  );
  return adopt(previous.sessionId, previous.kind, version.text, { ...version.metadata, source: 'notion', [TAKEN_FROM_NOTION]: true }, previous.version);
}

/** `!summary` on a TLDR that is up to date: a version people edited in Notion since is taken up, so the room reads it. */
export async function takeUpEditedTldr(
  deps: Pick<DocumentationDependencies, 'documents' | 'logger' | 'notion'>,
  adopt: AdoptDocument,
  sessionId: string,
): Promise<void> {
  const tldr = await deps.documents.find(sessionId, 'tldr');
  // A newer TLDR on its way to Notion meets people's edits in its sync job, which has the next pass take them up.
  if (!tldr || tldr.syncedVersion < tldr.version) return;
  await takeUpPeoplesEdits(deps, tldr, adopt, new AbortController().signal, 'always');
}

/**
 * `!refresh`, `!steps`, `!done`: the record as Notion holds it, when its newest version reached Notion. A page a person
 * edited since we wrote it, and that now says something else, becomes the newest version, and the next Scribe pass is
 * told to keep their words. A page only this integration wrote is never taken back: Notion's rendering of our own
 * markdown (blank lines, list numbers, indents) is not a person's edit. Null when there is no Notion, no record yet, or
 * a newer version still on its way; the local copy when Notion could not be read.
 */
export async function refreshFromNotion(
  deps: Pick<DocumentationDependencies, 'documents' | 'logger' | 'notion'>,
  adopt: AdoptDocument,
  sessionId: string,
): Promise<string | null> {
  const local = await deps.documents.find(sessionId, 'record');
  if (!deps.notion || !local || local.syncedVersion < local.version) return null;
  try {
    const edited = await peoplesVersion(deps, deps.notion, local);
    if (!edited) return local.content;
    const adopted = await adopt(sessionId, 'record', edited.text, { ...local.metadata, source: 'notion', [TAKEN_FROM_NOTION]: true }, local.version);
    return adopted ? edited.text : ((await deps.documents.find(sessionId, 'record'))?.content ?? local.content);
  } catch (error) {
    deps.logger.warn(
      { sessionId, err: error instanceof Error ? error.message : String(error) },
      'could not re-read the record from Notion; using the local copy',
    );
    return local.content;
  }
}
