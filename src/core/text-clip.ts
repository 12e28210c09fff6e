/**
 * Cutting text to a limit without parting an emoji's halves (a surrogate pair): a lone half is no character, shows as
 * a replacement mark in Discord and the console, and makes Postgres's JSON and some APIs refuse the whole text.
 */

/** The end, at most `end`, of a cut of `text` that keeps every surrogate pair whole. */
export function pairSafeEnd(text: string, end: number): number {
  if (end <= 0) return 0;
  if (end >= text.length) return text.length;
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** The first `maxChars` code units of `text` at most, never half an emoji. */
export function clipText(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : text.slice(0, pairSafeEnd(text, maxChars));
}

/** `text` within `maxChars` code units, the ellipsis included, ending in `…` where it was cut. */
export function shortenText(text: string, maxChars: number, ellipsis = '…'): string {
  if (text.length <= maxChars) return text;
  return `${clipText(text, Math.max(0, maxChars - ellipsis.length)).trimEnd()}${ellipsis}`;
}
