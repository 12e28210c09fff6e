/**
 * The streaming preview passes the same checks as the final answer (no secret, no mention, no masked link) before
 * anyone sees it: a preview that fails shows a neutral line instead, since the final answer will be withheld.
 */
import { findMaskedLinks } from './masked-links.ts';
import { scanForSecrets } from './secret-patterns.ts';
import { findMentions } from './text-checks.ts';

/** What a preview shows while its text would not pass the participant guardrails. */
export const HELD_PREVIEW_TEXT = '*(checking this answer before it is shown)*';

/**
 * The part of a streaming answer that may be shown now. The last word is held back while it may still grow: a key,
 * a mention or a link is judged only once it is complete (a half-written key is still half a key).
 */
export function screenPreview(text: string, knownSecrets: readonly string[] = []): string {
  const lastBreak = text.search(/\s\S*$/);
  const complete = lastBreak >= 0 ? text.slice(0, lastBreak) : '';
  if (complete.trim() === '') return '…';
  const unsafe = scanForSecrets(complete, knownSecrets).count > 0 || findMentions(complete).length > 0 || findMaskedLinks(complete).length > 0;
  return unsafe ? HELD_PREVIEW_TEXT : complete;
}
