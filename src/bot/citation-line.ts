/**
 * The "Sources" line under a web-grounded answer in Discord: masked links `[title](<url>)` (the angle brackets keep
 * Discord from unfurling a preview per link). Each link is built so the masked-link screen passes it: a title that
 * itself looks like another address than the target is replaced by the target's host.
 */
import { findMaskedLinks } from '../agents/guardrails/masked-links.ts';
import type { Citation } from '../core/domain.ts';
import { shortenText } from '../core/text-clip.ts';

/** Sources shown under one message, and how long a title may be. */
const MAX_SOURCES = 5;
const TITLE_LIMIT = 60;

/** A title as link text: one line, no markdown that could end the link or format it. */
function linkText(title: string): string {
  return shortenText(title.replace(/\s+/g, ' ').trim(), TITLE_LIMIT).replace(/([\\*_`~|[\]()<>])/g, '\\$1');
}

/** A target Discord parses whole inside `<...>`: parentheses and angle brackets percent-encoded. */
function linkTarget(url: string): string {
  return url.replace(/[()<>\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** One source as a masked link that the masked-link screen does not flag. */
export function sourceLink(citation: Citation): string {
  const target = linkTarget(citation.url);
  const link = `[${linkText(citation.title)}](<${target}>)`;
  if (findMaskedLinks(link).length === 0) return link;
  return `[${linkText(new URL(citation.url).hostname)}](<${target}>)`;
}

/** The small line listing an answer's sources, or '' when it has none. */
export function sourcesLine(citations: readonly Citation[] | undefined): string {
  if (!citations || citations.length === 0) return '';
  return `-# Sources: ${citations.slice(0, MAX_SOURCES).map(sourceLink).join(' · ')}`;
}
