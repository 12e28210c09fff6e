/** The ledger as text: sections of the record and the TLDR, and the `!ideas` reply. */
import type { LedgerFigures } from './ledger-metrics.ts';
import type { Idea, LedgerNote, SessionLedger } from '../../core/idea-ledger.ts';

/** Headings the ledger owns in a document (replaced on every write, never duplicated). */
export const LEDGER_HEADINGS = ['Idea ledger', 'Where the room disagreed', 'Open questions'] as const;

/** Message id -> link to the message in the room (null when it has none), with its number in the session when known. */
export type MessageLinks = ReadonlyMap<number, string | null | { url: string | null; number: number }>;

const COMMAND_REPLY_LIMIT = 1900;

/** The ledger id of an idea: `I3`. */
export function ideaRef(idea: Pick<Idea, 'number'>): string {
  return `I${idea.number}`;
}

/** How a message is cited: by its number in the session ("#12") when known, linked to the room when it can be. */
function messageRef(id: number, links: MessageLinks): string {
  const link = links.get(id);
  const url = typeof link === 'object' && link !== null ? link.url : (link ?? null);
  const label = `#${typeof link === 'object' && link !== null ? link.number : id}`;
  return url ? `[${label}](${url})` : label;
}

function messageRefs(ids: readonly number[], links: MessageLinks): string {
  return ids.map((id) => messageRef(id, links)).join(', ');
}

function names(list: readonly string[]): string {
  return list.length > 0 ? list.join(', ') : 'nobody';
}

function ideaLine(idea: Idea, links: MessageLinks): string {
  const objected = idea.objectors.length > 0 ? `; objected to by ${names(idea.objectors)}` : '';
  return `- **${ideaRef(idea)} ${idea.title}**: ${idea.summary} Proposed by ${idea.proposer || 'unknown'}; built on by ${names(idea.builders)}${objected} (${messageRefs(idea.messageIds, links)}).`;
}

function disagreementLine(note: LedgerNote, links: MessageLinks): string {
  const sides = note.sides.map((side) => `${side.speakers.join(', ')}: ${side.position}`).join(' **versus** ');
  return `- **${note.text}**: ${sides} (${messageRefs(note.messageIds, links)}).`;
}

/** Whether a recorded disagreement already tells an idea's objection: it cites one of the idea's messages and names every objector. */
function tells(note: LedgerNote, idea: Idea): boolean {
  const speakers = new Set(note.sides.flatMap((side) => side.speakers));
  return note.messageIds.some((id) => idea.messageIds.includes(id)) && idea.objectors.every((objector) => speakers.has(objector));
}

/**
 * The "Where the room disagreed" lines: disagreements, then the ideas with objectors that no disagreement already
 * tells (an extractor often reports one clash both ways); or a sentence saying all agreed.
 */
export function disagreementLines(ledger: SessionLedger, links: MessageLinks): string[] {
  const disagreements = ledger.notes.filter((note) => note.kind === 'disagreement');
  const lines = disagreements.map((note) => disagreementLine(note, links));
  for (const idea of ledger.ideas.filter((entry) => entry.objectors.length > 0 && !disagreements.some((note) => tells(note, entry)))) {
    const supporters = [idea.proposer, ...idea.builders].filter(Boolean);
    lines.push(
      `- **${ideaRef(idea)} ${idea.title}**: ${names(supporters)} for it **versus** ${names(idea.objectors)} against it (${messageRefs(idea.messageIds, links)}).`,
    );
  }
  if (lines.length === 0)
    return [
      ledger.ideas.length > 0
        ? '- The room agreed throughout: no idea met an objection and no disagreement was recorded.'
        : '- Nothing yet: no idea has been recorded.',
    ];
  return lines;
}

function questionLines(ledger: SessionLedger, links: MessageLinks): string[] {
  const questions = ledger.notes.filter((note) => note.kind === 'open_question');
  return questions.length > 0 ? questions.map((note) => `- ${note.text} (${messageRefs(note.messageIds, links)})`) : ['- None recorded.'];
}

/** The ledger's sections for a document: the full ledger in the record, disagreements and questions in both. */
export function ledgerSections(ledger: SessionLedger, links: MessageLinks, kind: 'record' | 'tldr'): string {
  const sections: string[] = [];
  if (kind === 'record') {
    const ideas = ledger.ideas.length > 0 ? ledger.ideas.map((idea) => ideaLine(idea, links)) : ['- No idea recorded yet.'];
    sections.push(`## ${LEDGER_HEADINGS[0]}\n\n${ideas.join('\n')}`);
  }
  sections.push(`## ${LEDGER_HEADINGS[1]}\n\n${disagreementLines(ledger, links).join('\n')}`);
  sections.push(`## ${LEDGER_HEADINGS[2]}\n\n${questionLines(ledger, links).join('\n')}`);
  return sections.join('\n\n');
}

/** Removes the ledger's sections from a document (a model may have copied them from the previous version). */
export function stripLedgerSections(markdown: string): string {
  const owned = new Set<string>(LEDGER_HEADINGS.map((heading) => heading.toLowerCase()));
  const kept: string[] = [];
  let skipping = false;
  for (const line of markdown.split('\n')) {
    // Trailing spaces cut first: a lazy title before `\s*$` scanned the rest of a run of spaces at each step (quadratic).
    const heading = /^(#{1,2})\s+(\S.*)$/.exec(line.trimEnd());
    if (heading) skipping = heading[1] === '##' && owned.has((heading[2] ?? '').toLowerCase());
    if (!skipping) kept.push(line);
  }
  return kept.join('\n').trimEnd();
}

/** A document with the ledger's sections (re)placed at its end. */
export function withLedgerSections(markdown: string, ledger: SessionLedger, links: MessageLinks, kind: 'record' | 'tldr'): string {
  return `${stripLedgerSections(markdown)}\n\n${ledgerSections(ledger, links, kind)}\n`;
}

/**
 * Why `!ideas` has nothing to list: no pass yet (and when one comes), or passes that found no idea; once the session
 * ended (`intervalSeconds` null) no pass comes again.
 */
function emptyLedger(passes: number, intervalSeconds: number | null): string {
  const read = `read the discussion ${passes} time${passes === 1 ? '' : 's'} and found none`;
  if (intervalSeconds === null) return passes === 0 ? 'No ideas in the ledger: it never read this discussion.' : `No ideas in the ledger: it ${read}.`;
  const every = `every ${intervalSeconds} s (the Scribe interval)`;
  if (passes === 0) return `No ideas in the ledger yet: it reads the discussion ${every}, so the first ideas show about one interval into the discussion.`;
  return `No ideas in the ledger yet: it ${read}; it reads it again ${every}.`;
}

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${Math.round(value * 100)}%`;
}

/**
 * The `!ideas` reply: the ideas with who proposed, built on and objected, and the figures. An empty ledger says when
 * it is read next (`intervalSeconds`, the Scribe interval; null once the session ended), or that its passes found none.
 */
export function ideasReply(
  ledger: SessionLedger,
  figures: LedgerFigures,
  roles: string | null,
  links: MessageLinks = new Map(),
  intervalSeconds: number | null = null,
): string {
  if (ledger.ideas.length === 0) return emptyLedger(ledger.passes.length, intervalSeconds);
  const head = `**Idea ledger** — ${ledger.ideas.length} idea${ledger.ideas.length === 1 ? '' : 's'}, agreement ${percent(figures.agreementRatio)}, ${figures.roundsWithoutNewIdea} round(s) without a new idea.`;
  const lines = ledger.ideas.map((idea) => {
    const objected = idea.objectors.length > 0 ? `; objected: ${names(idea.objectors)}` : '';
    return `**${ideaRef(idea)}** ${idea.title} — ${idea.proposer || 'unknown'}; built on: ${names(idea.builders)}${objected} (${idea.messageIds.map((id) => messageRef(id, links)).join(', ')})`;
  });
  const disagreements = ledger.notes.filter((note) => note.kind === 'disagreement').length;
  const tail = [disagreements > 0 ? `Disagreements recorded: ${disagreements} (see the record).` : null, roles].filter((line): line is string => line !== null);
  const out = [head];
  for (const line of [...lines, ...tail]) {
    if ([...out, line].join('\n').length > COMMAND_REPLY_LIMIT) {
      out.push(`… and more in the record.`);
      break;
    }
    out.push(line);
  }
  return out.join('\n');
}
