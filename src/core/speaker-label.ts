/** How a speaker's name opens a line of the transcript (`[Claude]: …`), and the text made safe inside a pattern. */

/** `text` with every character a regular expression reads as syntax escaped, to match it literally. */
export function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The pattern source of a speaker label for `name`, unanchored: `Claude:`, `[Claude]:`, `**Claude:**` or `__Claude__:`,
 * the way models copy the transcript's lines and the way one speaker pretends to be another.
 */
export function speakerLabelSource(name: string): string {
  return String.raw`(?:\*\*|__)?\[?${escapeForPattern(name)}\]?(?:\*\*|__)?\s*:(?:\*\*|__)?`;
}
