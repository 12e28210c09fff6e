/**
 * Models read the discussion as `[Speaker]: text` lines and often open their answer the same way ("[Claude]: …",
 * "**Claude:** …"). Posted under the participant's own name, the label only repeats it, and read back in the next
 * turn's input it teaches every model to do the same.
 */

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The label forms a model opens with, bare: "[claude]:", "claude:" (markup and case aside). */
function labelForms(name: string): string[] {
  const lower = name.toLowerCase();
  return [`[${lower}]:`, `${lower}:`];
}

/**
 * An answer without a leading label of its author's own name. While the answer's start could still become such a
 * label (a stream's first tokens, "[Cla"), it is held back as empty, so a preview never shows it.
 */
export function withoutOwnLabel(text: string, name: string): string {
  const label = new RegExp(String.raw`^\s*(?:\*\*|__)?\[?${escapeForPattern(name)}\]?(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*\n?`, 'i');
  if (label.test(text)) return text.replace(label, '');
  const start = text
    .trimStart()
    .replace(/^(?:\*\*|__)/, '')
    .toLowerCase();
  return start !== '' && labelForms(name).some((form) => form.startsWith(start)) ? '' : text;
}
