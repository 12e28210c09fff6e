/**
 * The record's next steps: the task list under its "Next steps" heading (`- [ ] action — owner (#12)`), which Notion
 * shows as to-do boxes people tick. Read from the record's text, so a box ticked in Notion reads as done once the
 * record is taken back from there.
 */

/** One line of the record's task list. */
export interface NextStep {
  action: string;
  done: boolean;
}

/** The task list under the record's "Next steps" heading (`- [ ] action (#12)`, `- [x] …` when ticked); none: empty. */
export function nextStepsIn(record: string): NextStep[] {
  const lines = record.split('\n');
  const start = lines.findIndex((line) => /^#{1,3}\s+Next steps\s*$/i.test(line.trim()));
  if (start < 0) return [];
  const steps: NextStep[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3}\s/.test(line.trim())) break;
    const task = /^\s*[-*+] \[([ xX])\] (.+)$/.exec(line);
    if (task) steps.push({ action: task[2]!.trim(), done: task[1] !== ' ' });
  }
  return steps;
}

/** Next steps as lines Discord can show (it has no task lists): ☐ open, ☑ done. */
export function nextStepLines(steps: readonly NextStep[]): string {
  return steps.map((step) => `${step.done ? '☑' : '☐'} ${step.action}`).join('\n');
}
