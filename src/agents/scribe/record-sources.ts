/**
 * The record's "Web sources" section: every page a web-grounded answer cited, as a link, with who cited it and
 * in which message. Written from the stored citations, not by the Scribe model, so no source goes missing and no
 * link is made up; each pass replaces the section the previous record carried.
 */
import type { ChatMessage } from '../../core/domain.ts';

/** The heading of the section (a level-2 heading, like the record's own sections). */
export const SOURCES_HEADING = '## Web sources';

/** A title as markdown link text: one line, no brackets that would end the link early. */
function linkText(title: string): string {
  return title.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim() || 'source';
}

/** The record without its sources section (from the heading to the next level-1 or level-2 heading). */
export function withoutSources(record: string): string {
  const lines = record.split('\n');
  const start = lines.findIndex((line) => line.trim() === SOURCES_HEADING);
  if (start < 0) return record;
  const next = lines.findIndex((line, index) => index > start && /^#{1,2} /.test(line));
  const kept = [...lines.slice(0, start), ...(next < 0 ? [] : lines.slice(next))];
  return kept.join('\n').trimEnd();
}

/** The record with a fresh sources section listing the citations of `messages` (none: the section is dropped). */
export function withSources(record: string, messages: readonly Pick<ChatMessage, 'number' | 'speaker' | 'citations'>[]): string {
  const base = withoutSources(record);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const message of messages) {
    for (const citation of message.citations ?? []) {
      if (seen.has(citation.url)) continue;
      seen.add(citation.url);
      const target = citation.url.replace(/\(/g, '%28').replace(/\)/g, '%29');
      lines.push(`- [${linkText(citation.title)}](${target}) — ${message.speaker.name}, #${message.number}`);
    }
  }
  if (lines.length === 0) return base;
  return `${base.trimEnd()}\n\n${SOURCES_HEADING}\n${lines.join('\n')}\n`;
}
