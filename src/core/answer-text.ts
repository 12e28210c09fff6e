/**
 * What of a model's answer people see. Models read the discussion as `[Speaker]: text` lines and often open their
 * answer the same way ("[Claude]: …", "**Claude:** …"): posted under the author's own name, the label only repeats
 * it, and read back in the next turn's input it teaches every model to do the same. Reasoning models served
 * locally (DeepSeek R1, QwQ, Qwen3 through Ollama or LM Studio) write their thinking into the answer between
 * `<think>` tags: it is not the answer.
 */
import { speakerLabelSource } from './speaker-label.ts';

const LABELS = new Map<string, RegExp>();

/** The label pattern of a name, made once: it is read at every streamed delta of every answer. */
function labelPattern(name: string): RegExp {
  let pattern = LABELS.get(name);
  if (!pattern) {
    pattern = new RegExp(String.raw`^\s*${speakerLabelSource(name)}[ \t]*\n?`, 'i');
    if (LABELS.size < 256) LABELS.set(name, pattern);
  }
  return pattern;
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
  const label = labelPattern(name);
  if (label.test(text)) return text.replace(label, '');
  const start = text
    .trimStart()
    .replace(/^(?:\*\*|__)/, '')
    .toLowerCase();
  return start !== '' && labelForms(name).some((form) => form.startsWith(start)) ? '' : text;
}

const THINKING = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>\s*/gi;
const OPEN_THINKING = /^\s*<(?:think|thinking|reasoning)>/i;
const CLOSE_ONLY = /^[\s\S]*?<\/(?:think|thinking|reasoning)>\s*/i;
const OPENING_TAGS = /<(?:think|thinking|reasoning)>/gi;
const TAGS = /<(\/?)(think|thinking|reasoning)>/gi;
/** Past this many opening tags the one pattern could rescan the answer from each unclosed one: scan the tags once. */
const FEW_OPENINGS = 32;

/**
 * `text.replace(THINKING, '')` in one pass over the tags: each block closes at the first closing tag of its name
 * after it (as the lazy pattern does), and an opening tag with none after it stays. Linear where the pattern is
 * quadratic (thousands of unclosed `<think>` took seconds).
 */
function withoutClosedBlocks(text: string): string {
  const tags = [...text.matchAll(TAGS)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    closing: match[1] === '/',
    name: (match[2] ?? '').toLowerCase(),
  }));
  const nextClosing: number[] = [];
  const closingAfter = new Map<string, number>();
  for (let index = tags.length - 1; index >= 0; index -= 1) {
    const tag = tags[index]!;
    if (tag.closing) closingAfter.set(tag.name, index);
    nextClosing[index] = closingAfter.get(tag.name) ?? -1;
  }
  const kept: string[] = [];
  let from = 0;
  for (let index = 0; index < tags.length; index += 1) {
    const tag = tags[index]!;
    const close = nextClosing[index]!;
    if (tag.closing || tag.start < from || close === -1) continue;
    kept.push(text.slice(from, tag.start));
    from = tags[close]!.end;
    while (from < text.length && /\s/.test(text.charAt(from))) from += 1;
    index = close;
  }
  kept.push(text.slice(from));
  return kept.join('');
}

/**
 * An answer without its thinking: every closed `<think>…</think>` block; an answer still inside an opening one
 * (a stream, mid-thought) shows nothing yet; one whose opening tag the model's template already sent (only
 * `</think>` in the output) starts after it.
 */
export function withoutThinking(text: string): string {
  if (!text.includes('<')) return text;
  const closed = (text.match(OPENING_TAGS)?.length ?? 0) > FEW_OPENINGS ? withoutClosedBlocks(text) : text.replace(THINKING, '');
  if (OPEN_THINKING.test(closed)) return '';
  return /<(?:think|thinking|reasoning)>/i.test(closed) ? closed : closed.replace(CLOSE_ONLY, '');
}

/** What people see of an answer by `name`: without its thinking, then without a leading label of its name. */
export function visibleAnswer(text: string, name: string): string {
  return withoutOwnLabel(withoutThinking(text), name);
}
