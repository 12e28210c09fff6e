/** `!steps`, `!done` and `!reopen`: the record's next steps, read and ticked from the room. */
import { PLANNING_STATUSES, type Session } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import { doneButtons, nextStepLines, nextStepsIn, stepKey, stepNamed, withKeyedStepMarked } from '../../core/next-steps.ts';
import type { CommandAnswer } from './command-table.ts';
import type { CommandInvocation, DocumentationPort } from '../../core/ports.ts';

/** Where `!done` and `!reopen` store the record with a step's box changed (the documentation service fits). */
export interface PeoplesRecordWriter {
  /**
   * Applies `edit` to the newest record and stores the result as a person's edit, again on a newer record when a Scribe
   * pass wrote one meanwhile; false when there is no record or `edit` returns null (the step is no longer there).
   */
  editPeoplesRecord(sessionId: string, edit: (record: string) => string | null): Promise<boolean>;
}

/** What the next-steps commands need: the record, read back from Notion, and a way to store a person's edit of it. */
export interface NextStepsCommandOptions {
  documentation: Pick<DocumentationPort, 'refreshRecord' | 'requestRecord'> & PeoplesRecordWriter;
}

/**
 * `!steps`: the record's next steps, brought up to the last message first (as `!record` is: an action agreed a moment
 * ago is listed, not missing until the Scribe's next pass), then read back from Notion (a box people ticked there reads
 * as done; the record taken back is what the next Scribe pass builds on, as after `!refresh`).
 */
export async function listNextSteps(o: NextStepsCommandOptions, session: Session): Promise<string | CommandAnswer> {
  if (PLANNING_STATUSES.includes(session.status)) return 'No next steps yet — the discussion starts once the plan is approved.';
  await o.documentation.requestRecord(session.id, { urgent: true });
  const steps = nextStepsIn((await o.documentation.refreshRecord(session.id)) ?? '');
  if (steps.length === 0) return 'No next steps in the record yet — the Scribe lists the actions the room agrees on.';
  const done = steps.filter((step) => step.done).length;
  return { content: `**Next steps** (${steps.length - done} open, ${done} done)\n${nextStepLines(steps)}`, buttons: doneButtons(steps, 'steps') };
}

/**
 * `!done <n>` / `!reopen <n>`: ticks the record's `n`th next step, or the one its words name (or opens it again), on
 * the record read back from Notion first, so a tick made there meanwhile is kept; stored as a person's edit, synced.
 * A step it cannot find may have been agreed since the Scribe's last pass: the record is brought up to the last
 * message, as for `!steps`, and read again.
 */
export async function markNextStep(
  o: NextStepsCommandOptions,
  session: Session,
  invocation: CommandInvocation,
  done: boolean,
): Promise<string | CommandAnswer> {
  const wanted = invocation.args.trim();
  if (!wanted)
    throw new BrainstormError('bad_input', `Usage: \`!${done ? 'done' : 'reopen'} <number or words>\` — the step's number in \`!steps\`, or words of it.`);
  if (PLANNING_STATUSES.includes(session.status)) return 'No next steps yet — the discussion starts once the plan is approved.';
  let steps = nextStepsIn((await o.documentation.refreshRecord(session.id)) ?? '');
  let named = stepNamed(steps, wanted);
  if ('problem' in named) {
    await o.documentation.requestRecord(session.id, { urgent: true });
    steps = nextStepsIn((await o.documentation.refreshRecord(session.id)) ?? '');
    named = stepNamed(steps, wanted);
  }
  if (steps.length === 0) return 'No next steps in the record yet — the Scribe lists the actions the room agrees on.';
  if ('problem' in named) throw new BrainstormError('bad_input', named.problem);
  const step = steps[named.number - 1]!;
  const line = nextStepLines([{ ...step, done }], named.number);
  // Nothing changed, so nothing for the room: only the person hears it (a second press of one button, say).
  if (step.done === done) return { content: `Already ${done ? 'done' : 'open'}: ${line}`, private: true };
  // The box changes on the newest record: a Scribe pass that landed since the read above keeps what it wrote.
  const key = stepKey(step.action);
  if (!(await o.documentation.editPeoplesRecord(session.id, (newest) => withKeyedStepMarked(newest, named.number, key, done))))
    throw new BrainstormError('not_found', 'That step is no longer in the record: the Scribe rewrote the list (see `!steps`).');
  return `${line} — ${done ? 'done' : 'open again'}, by ${invocation.author.name}.`;
}
