/** The scheduled Scribe and TLDR passes (job handlers' bodies). */
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import { buildScribeInput, ensureEveryVoice, fallbackRecord, recordable, recordSubject, type ScribeCorrection } from '../../agents/scribe/scribe-input.ts';
import { renderTldrMarkdown } from '../../agents/tldr/tldr-text.ts';
import { withSources } from '../../agents/scribe/record-sources.ts';
import { withSharedFiles } from '../../agents/scribe/shared-files.ts';
import { NotionRequestError, NotionThrottledError } from '../../notion/notion-errors.ts';
import { documentFacts } from '../../core/agent-context.ts';
import type { TldrOutput } from '../../core/schemas.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import { runScribe, runTldr } from './agent-runs.ts';
import type { DocumentationDependencies } from './documentation-types.ts';
import { rewriteVanished } from './document-delays.ts';
import { documentFailure } from './notion-jobs.ts';
import { PEOPLE_EDITED_IN_NOTION, TAKEN_FROM_NOTION, takeUpPeoplesEdits, type AdoptDocument } from './people-edits.ts';

/** What a pass may do after it stored a document (the service enqueues the follow-up jobs). */
export interface PassEffects {
  /** Stores what an agent wrote (a record keeps the ticks people made, whatever the model wrote). */
  store(sessionId: string, kind: 'record' | 'tldr', markdown: string, metadata: Record<string, unknown>): Promise<void>;
  scheduleTldr(sessionId: string): Promise<void>;
  remember(sessionId: string, text: string): Promise<void>;
  /** Stores what Notion holds as the newest version of a document, already synced. */
  adopt: AdoptDocument;
}

/** `scribe`: updates the record when something new was said; on model failure keeps a statistics record. */
export async function runScribePass(deps: DocumentationDependencies, effects: PassEffects, job: ClaimedJob, signal: AbortSignal): Promise<JobOutcome> {
  const sessionId = String(job.payload.sessionId);
  const session = await deps.sessions.findById(sessionId);
  if (!session) return { status: 'done' };
  const stored = await deps.documents.find(sessionId, 'record');
  const previous = stored ? ((await takeUpPeoplesEdits(deps, stored, effects.adopt, signal)) ?? stored) : null;
  const lastMessageId = Number(previous?.metadata.lastMessageId ?? 0);
  // Read before the messages: an edit made while this pass runs is corrected by the next one.
  const readAt = deps.clock.now();
  const all = recordable(await deps.messages.listForSession(sessionId));
  const fresh = all.filter((message) => message.id > lastMessageId);
  const corrections = previous ? await correctionsSince(deps, sessionId, lastMessageId, previous.metadata.revisedThrough) : [];
  if (fresh.length === 0 && corrections.length === 0) return { status: 'done' };
  const subject = recordSubject(session);
  const newest = fresh.at(-1)?.id ?? lastMessageId;
  const store = (markdown: string, fallback: boolean) =>
    effects.store(sessionId, 'record', withSharedFiles(withSources(ensureEveryVoice(markdown, all), all), all), {
      lastMessageId: newest,
      fallback,
      // A statistics record applies no correction: the next pass is told of them again.
      revisedThrough: fallback ? (previous?.metadata.revisedThrough ?? null) : readAt.toISOString(),
    });
  try {
    const input = buildScribeInput(subject, previous?.content ?? null, fresh, corrections, { editedByPeople: previous?.metadata[TAKEN_FROM_NOTION] === true });
    const written = await runScribe(deps, sessionId, session.topic, input, signal, {
      store: (markdown) => store(markdown, false),
      facts: documentFacts(all),
    });
    // A model that ignored the forced call answered with the record: the pass delivers it.
    if (!written.storedByTool) await store(written.value, false);
  } catch (error) {
    if (signal.aborted) throw error;
    // Only corrections to apply: a statistics record cannot apply them; the pass is tried again.
    if (fresh.length === 0) return { status: 'retry', error: `Scribe model failed: ${error instanceof Error ? error.message : String(error)}` };
    deps.logger.warn({ sessionId, err: error instanceof Error ? error.message : String(error) }, 'Scribe model failed; writing a fallback record');
    const note = 'The Scribe model was unavailable; this part holds plain statistics and the timeline.';
    const record =
      previous && !previous.metadata.fallback
        ? `${previous.content.trimEnd()}\n\n${fallbackRecord(subject, fresh, note).replace(/^# .*$/m, '## Not yet summarised')}`
        : fallbackRecord(subject, all, note);
    await store(record, true);
  }
  await effects.scheduleTldr(sessionId);
  return { status: 'done' };
}

/** People's edits and deletions, since the record's last pass, of messages it already took in. */
async function correctionsSince(deps: DocumentationDependencies, sessionId: string, throughId: number, revisedThrough: unknown): Promise<ScribeCorrection[]> {
  const since = typeof revisedThrough === 'string' ? new Date(revisedThrough) : new Date(0);
  return deps.revisions.revisedSince(sessionId, throughId, since);
}

/** `tldr`: reads the record back from Notion (the source of truth) or the mirror, and distils it. */
export async function runTldrPass(
  deps: DocumentationDependencies,
  effects: PassEffects,
  readLocal: (sessionId: string) => Promise<string | null>,
  job: ClaimedJob,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const sessionId = String(job.payload.sessionId);
  const session = await deps.sessions.findById(sessionId);
  const record = await deps.documents.find(sessionId, 'record');
  if (!session || !record) return { status: 'done' };
  const tldr = await currentTldr(deps, effects, sessionId, record.version, signal);
  if (tldr && Number(tldr.metadata.recordVersion ?? 0) >= record.version) return { status: 'done' };
  let text: string | null;
  if (deps.notion) {
    // Read what Notion holds only once the newest record reached it; until then the sync job is catching up.
    if (record.syncedVersion < record.version) return { status: 'postpone', afterMs: 15_000 };
    try {
      text = await deps.notion.readDocument(sessionId, 'record', signal);
    } catch (error) {
      if (error instanceof NotionThrottledError || error instanceof NotionRequestError) return documentFailure(deps, sessionId, job, error);
      throw error;
    }
    if (text === null) {
      // The record's page vanished in Notion: distil the local copy, and write the record there again.
      await rewriteVanished(deps, deps.notion, sessionId);
      text = record.content;
    }
  } else {
    text = (await readLocal(sessionId)) ?? record.content;
  }
  if (!text.trim()) return { status: 'done' };
  const messages = recordable(await deps.messages.listForSession(sessionId));
  const store = async (output: TldrOutput): Promise<void> => {
    const summary = { summary: output.summary, keyFindings: output.keyFindings.slice(0, 5) };
    await effects.store(sessionId, 'tldr', renderTldrMarkdown(summary, `TLDR: ${session.topic}`), {
      recordVersion: record.version,
      findings: summary.keyFindings.length,
    });
    await effects.remember(sessionId, `${session.topic}\n\n${summary.summary}`);
  };
  const citable = messages.map((message) => ({ number: message.number, text: `${message.speaker.name} ${message.text}` }));
  const peoples = tldr?.metadata[TAKEN_FROM_NOTION] === true ? tldr.content : null;
  const written = await runTldr(deps, sessionId, text, signal, { store, facts: documentFacts(messages), messages: citable }, peoples);
  if (!written.storedByTool) await store(written.value);
  return { status: 'done' };
}

/**
 * The TLDR the pass builds on. When it is due to change (the record moved on, or the sync job found people's edits),
 * a version people edited in Notion is taken up first, so the new TLDR starts from their wording: the check is one
 * `pages.retrieve` a pass, which runs at most every `TLDR_UPDATE_INTERVAL`.
 */
async function currentTldr(deps: DocumentationDependencies, effects: PassEffects, sessionId: string, recordVersion: number, signal: AbortSignal) {
  const tldr = await deps.documents.find(sessionId, 'tldr');
  if (!tldr) return null;
  const due = tldr.metadata[PEOPLE_EDITED_IN_NOTION] === true || Number(tldr.metadata.recordVersion ?? 0) < recordVersion;
  return due ? ((await takeUpPeoplesEdits(deps, tldr, effects.adopt, signal, 'always')) ?? tldr) : tldr;
}
