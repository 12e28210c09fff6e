/**
 * The record's next steps: the task list under its "Next steps" heading (`- [ ] action — owner (#12)`), which Notion
 * shows as to-do boxes people tick. Read from the record's text, so a box ticked in Notion reads as done once the
 * record is taken back from there.
 */
import type { ReplyButton } from './ports.ts';

/** The section's heading, at any of the record's heading levels. */
const NEXT_STEPS_HEADING = /^#{1,3}\s+Next steps\s*$/i;

/** A task list item: its box (` `, `x`) and its action. */
const TASK_LINE = /^\s*[-*+] \[([ xX])\] (.+)$/;

/** One line of the record's task list. */
export interface NextStep {
  action: string;
  done: boolean;
}

/** The indexes of the task list's lines, in order: those under the "Next steps" heading, up to the next heading. */
function stepLineIndexes(lines: readonly string[]): number[] {
  const start = lines.findIndex((line) => NEXT_STEPS_HEADING.test(line.trim()));
  if (start < 0) return [];
  const indexes: number[] = [];
  for (let index = start + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (/^#{1,3}\s/.test(line.trim())) break;
    if (TASK_LINE.test(line)) indexes.push(index);
  }
  return indexes;
}

/** The task list under the record's "Next steps" heading (`- [ ] action (#12)`, `- [x] …` when ticked); none: empty. */
export function nextStepsIn(record: string): NextStep[] {
  const lines = record.split('\n');
  return stepLineIndexes(lines).map((index) => {
    const [, box = ' ', action = ''] = TASK_LINE.exec(lines[index] ?? '') ?? [];
    return { action: action.trim(), done: box !== ' ' };
  });
}

/**
 * The record with its `number`th next step (1-based) ticked (`done`) or opened again; null when there is no such step.
 * Only the box changes: the action's words, and everything else in the record, stay as written.
 */
export function withStepMarked(record: string, number: number, done: boolean): string | null {
  const lines = record.split('\n');
  const index = Number.isInteger(number) && number >= 1 ? stepLineIndexes(lines)[number - 1] : undefined;
  if (index === undefined) return null;
  lines[index] = (lines[index] ?? '').replace(/\[[ xX]\]/, done ? '[x]' : '[ ]');
  return lines.join('\n');
}

/** An action as compared across versions: spacing and case aside. */
const normalAction = (action: string) => action.replace(/\s+/g, ' ').trim().toLowerCase();

/** The messages a step cites at its end (`(#12)`, `(#4, #7)`), as one key; null when it cites none. */
function citationOf(action: string): string | null {
  const cited = /\((#\d+(?:\s*,\s*#\d+)*)\)\s*$/.exec(action)?.[1];
  return cited ? cited.replace(/\s+/g, '') : null;
}

/**
 * The step of `record` that rewords a ticked step of `earlier`: the one step citing the same messages, when the
 * ticked step was the only one of `earlier` to cite them. A Scribe often rephrases an
 * action; its citation is what stays. Anything less certain is no match: ticking the wrong step would be worse.
 */
function rewordingOf(ticked: NextStep, earlier: readonly NextStep[], steps: readonly NextStep[]): number | null {
  const citation = citationOf(ticked.action);
  if (citation === null || earlier.filter((step) => citationOf(step.action) === citation).length !== 1) return null;
  const citing = steps.flatMap((step, index) => (citationOf(step.action) === citation ? [index] : []));
  return citing.length === 1 ? citing[0]! : null;
}

/**
 * The record with every step `earlier` had ticked still there and ticked: a Scribe that rewrote the record (a model may
 * drop a tick, reword the action, or drop the whole line), or wrote it while someone ticked a step, neither opens nor
 * loses a step people closed. A reworded step (`rewordingOf`) is ticked in its new words; a ticked step the new record
 * lacks goes back at the end of its list (its section is added when it has none).
 */
export function withTicksKept(record: string, earlier: string): string {
  const earlierSteps = nextStepsIn(earlier);
  const ticked = earlierSteps.filter((step) => step.done);
  if (ticked.length === 0) return record;
  const lines = record.split('\n');
  const indexes = stepLineIndexes(lines);
  const steps = nextStepsIn(record);
  const tick = (position: number) => (lines[indexes[position]!] = (lines[indexes[position]!] ?? '').replace(/\[ \]/, '[x]'));
  const missing: string[] = [];
  for (const step of ticked) {
    const same = steps.findIndex((candidate) => normalAction(candidate.action) === normalAction(step.action));
    const position = same >= 0 ? same : rewordingOf(step, earlierSteps, steps);
    if (position === null) missing.push(`- [x] ${step.action}`);
    else tick(position);
  }
  if (missing.length === 0) return lines.join('\n');
  const heading = lines.findIndex((line) => NEXT_STEPS_HEADING.test(line.trim()));
  if (heading < 0) return `${record.trimEnd()}\n\n## Next steps\n${missing.join('\n')}\n`;
  lines.splice((indexes.at(-1) ?? heading) + 1, 0, ...missing);
  return lines.join('\n');
}

/**
 * A short, stable key of a step's action (8 hex digits of FNV-1a over its normal form): a button made for step 2 names
 * it as `2@key`, so a click after the Scribe rewrote the list still ticks the step the person saw, or none.
 */
export function stepKey(action: string): string {
  let hash = 0x811c9dc5;
  for (const character of normalAction(action)) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** `2@1a2b3c4d` (a button's): the step with that key, at that number when it is still there. */
function stepKeyed(steps: readonly NextStep[], number: number, key: string): { number: number } | { problem: string } {
  if (steps[number - 1] && stepKey(steps[number - 1]!.action) === key) return { number };
  const moved = steps.findIndex((step) => stepKey(step.action) === key);
  return moved >= 0 ? { number: moved + 1 } : { problem: 'That step is no longer in the record: the Scribe rewrote the list (see `!steps`).' };
}

/**
 * `record` with the step `key` names (see `stepKey`) ticked or opened again: at `number` when that step is still there,
 * else wherever the Scribe moved it; null when it is gone. How a person's tick lands on a record written meanwhile.
 */
export function withKeyedStepMarked(record: string, number: number, key: string, done: boolean): string | null {
  const found = stepKeyed(nextStepsIn(record), number, key);
  return 'number' in found ? withStepMarked(record, found.number, done) : null;
}

/** A Done button's arguments (`2@1a2b3c4d`): the step's number as shown, and its key; null for anything else. */
export function keyedStep(args: string): { number: number; key: string } | null {
  const keyed = /^(\d+)@([0-9a-f]{8})$/.exec(args.trim().toLowerCase());
  return keyed ? { number: Number(keyed[1]), key: keyed[2]! } : null;
}

/**
 * The step `wanted` names (`!done 2`, `!done pilot doc`, a button's `2@1a2b3c4d`): its number, or words all found in
 * one step's action; the step's 1-based number, or why it names none or several.
 */
export function stepNamed(steps: readonly NextStep[], wanted: string): { number: number } | { problem: string } {
  const words = wanted.trim().toLowerCase();
  const keyed = keyedStep(words);
  if (keyed) return stepKeyed(steps, keyed.number, keyed.key);
  if (/^\d+$/.test(words)) {
    const number = Number(words);
    // Said as typed, shortened: "9999…" rather than the Infinity a 500-digit number parses to.
    const said = words.length > 6 ? `${words.slice(0, 6)}…` : String(number);
    return number >= 1 && number <= steps.length ? { number } : { problem: `There is no step ${said}: the record has ${steps.length} (see \`!steps\`).` };
  }
  const parts = words.split(/\s+/);
  const matching = steps.flatMap((step, index) => (parts.every((part) => step.action.toLowerCase().includes(part)) ? [index + 1] : []));
  if (matching.length === 1) return { number: matching[0]! };
  if (matching.length === 0) return { problem: `No step says “${wanted.trim()}” (see \`!steps\`).` };
  return { problem: `Steps ${matching.join(', ')} all say “${wanted.trim()}”: name one by its number.` };
}

/**
 * `text` (a closing, a reminder) with its shown line of step `number` ticked (`☐ 2.` -> `☑ 2.`), as the person who
 * pressed its Done button saw it; null when the text shows no such open line.
 */
export function withShownStepTicked(text: string, number: number): string | null {
  const line = new RegExp(`^☐ ${number}\\. `, 'm');
  return line.test(text) ? text.replace(line, `☑ ${number}. `) : null;
}

/** Next steps as lines Discord can show (it has no task lists): ☐ open, ☑ done, numbered (from `first`) for `!done <n>`. */
export function nextStepLines(steps: readonly NextStep[], first = 1): string {
  return steps.map((step, index) => `${step.done ? '☑' : '☐'} ${first + index}. ${step.action}`).join('\n');
}

/**
 * A "Done n" button per open step: it ticks that step by number and key (so a list rewritten meanwhile never has another
 * ticked), then shows the answer of `then` in place of the message (`!steps`: the list, ticked); with no `then` the
 * message stays and loses the pressed button (the closing, the reminder).
 */
export function doneButtons(steps: readonly NextStep[], then?: string): ReplyButton[] {
  return steps.flatMap((step, index) =>
    step.done ? [] : [{ label: `Done ${index + 1}`, command: 'done', args: `${index + 1}@${stepKey(step.action)}`, ...(then ? { then } : {}) }],
  );
}
