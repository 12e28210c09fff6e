/** The TLDR's input, its plain-text fallback parser and its markdown rendering. */
import { tldrSchema, type TldrOutput } from '../../core/schemas.ts';

function fromJson(text: string): TldrOutput | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const parsed = tldrSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+(.*)$/;

/** The sources a finding names: message references (`#12`) and bracketed or parenthesised speaker names. */
export function findSources(text: string): string[] {
  const references = [...text.matchAll(/#\d+/g)].map((match) => match[0]);
  const names = [...text.matchAll(/\[([A-Z][\w .-]{0,40})\]/g)].map((match) => match[1] ?? '');
  return [...new Set([...references, ...names])].filter(Boolean);
}

/** Parses a TLDR answer that is not valid JSON: embedded JSON first, else a summary followed by bullets. */
export function parseTldrText(text: string): TldrOutput | null {
  const json = fromJson(text);
  if (json) return json;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const findings = lines.map((line) => BULLET.exec(line)?.[1]?.trim()).filter((line): line is string => !!line);
  const summary = lines
    .filter((line) => !BULLET.test(line) && !/^\s*#|key findings?:?\s*$/i.test(line))
    .join('\n')
    .replace(/^\s*summary:?\s*/i, '')
    .trim();
  if (!summary || findings.length === 0) return null;
  return { summary, keyFindings: findings.slice(0, 5).map((finding) => ({ finding, sources: findSources(finding) })) };
}

/** The TLDR as the markdown page stored in Notion and the mirror. */
export function renderTldrMarkdown(tldr: TldrOutput, title = 'TLDR'): string {
  const findings = tldr.keyFindings.map(
    (item, index) => `${index + 1}. ${item.finding}${item.sources.length > 0 ? ` (sources: ${item.sources.join(', ')})` : ''}`,
  );
  return [`# ${title}`, '', '## Summary', '', tldr.summary.trim(), '', '## Key findings', '', ...findings, ''].join('\n');
}

/** Reads the key findings back from a stored TLDR page (for `!summary` and tests). */
export function findingsOf(markdown: string): string[] {
  const section = markdown.split(/^## Key findings\s*$/m)[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^\s*\d+\.\s+(.*)$/.exec(line)?.[1])
    .filter((line): line is string => !!line);
}

/**
 * The user message of a TLDR pass: the record, and before it the TLDR people edited in Notion when they did, so the
 * new summary keeps what they wrote (a finding they corrected stays corrected) and changes only what the record changed.
 */
export function tldrInput(record: string, editedByPeople: string | null = null): string {
  const recordPart = `The Scribe's detailed record:\n\n${record}`;
  if (!editedByPeople) return recordPart;
  return [
    'People edited the TLDR in Notion. Keep their wording, corrections and additions as they wrote them, and change only',
    'what the record below now says differently or adds. Their version:',
    '',
    editedByPeople,
    '',
    recordPart,
  ].join('\n');
}
