import { ALL_STATUSES, SESSION_TRANSITIONS, type Session, type SessionStatus } from '../../core/domain.ts';
import { spokenList } from '../../core/spoken-list.ts';
import { COMMAND_CATALOG } from '../../core/command-catalog.ts';
import type { CommandInvocation, ReplyButton } from '../../core/ports.ts';
import { clipText } from '../../core/text-clip.ts';

/** What a command handler receives. */
export interface CommandCall {
  invocation: CommandInvocation;
  /** The session of the room the command was used in (null outside a session room). */
  session: Session | null;
}

/** One command of the table, served alike to `!` messages, slash commands and buttons. */
export interface CommandDefinition {
  name: string;
  aliases: string[];
  usage: string;
  description: string;
  admin: boolean;
  /** States it applies in; null = needs no session. */
  states: SessionStatus[] | null;
  /** Exempt from the per-person rate limit (a stop always wins). */
  unlimited?: boolean;
  run(call: CommandCall): Promise<string | CommandAnswer>;
}

/** A command's answer with buttons (`!steps`), or for the person alone (`Already done`); most answer with text alone. */
export interface CommandAnswer {
  content: string;
  buttons?: ReplyButton[];
  private?: boolean;
}

const ANY: SessionStatus[] = [...ALL_STATUSES];

/** The states each command applies in (used by the table and by the help text). */
export const COMMAND_STATES = {
  approve: ['awaiting_approval'] as SessionStatus[],
  continue: [...SESSION_TRANSITIONS.resume.from] as SessionStatus[],
  stop: [...SESSION_TRANSITIONS.end.from] as SessionStatus[],
  pause: [...SESSION_TRANSITIONS.pause.from] as SessionStatus[],
  explore: ['active', 'paused', 'completed', 'stopped'] as SessionStatus[],
  status: ANY,
  refresh: ['active', 'paused'] as SessionStatus[],
  focus: ['active'] as SessionStatus[],
  summary: ANY,
  record: ANY,
  steps: ANY,
  done: ANY,
  reopen: ANY,
  reset: ['active', 'paused'] as SessionStatus[],
};

/** What a person can do in each state, told with a command that does not apply in it ("the session is paused"). */
const IN_THIS_STATE: Record<SessionStatus, string> = {
  planning: ' Answer the Planner’s questions first.',
  awaiting_approval: ' `!approve` starts the discussion, or write what to change in the plan.',
  active: '',
  paused: ' `!continue` resumes it.',
  completed: ' It has ended; `!summary`, `!record` and `!steps` still work.',
  stopped: ' It has ended; `!summary`, `!record` and `!steps` still work.',
  cancelled: ' It was cancelled before it started; post a topic in the brainstorm channel to start again.',
};

/** The reply to a command used in a state it does not apply in, with what works now. */
export function wrongState(command: Pick<CommandDefinition, 'name'>, status: SessionStatus): string {
  return `\`!${command.name}\` does not apply now: the session is ${status.replace('_', ' ')}.${IN_THIS_STATE[status]}`;
}

/** Looks a command up by name or alias. */
export function findCommand(table: CommandDefinition[], name: string): CommandDefinition | undefined {
  const wanted = name.toLowerCase();
  return table.find((command) => command.name === wanted || command.aliases.includes(wanted));
}

/** Words people type for a command that is named otherwise here (`!end` for `!stop`), by the command they mean. */
const WORDS_FOR: Record<string, readonly string[]> = {
  stop: ['end', 'finish', 'quit', 'exit', 'close', 'wrap', 'wrapup', 'halt', 'abort', 'cancel'],
  continue: ['resume', 'unpause', 'proceed', 'next'],
  summary: ['tldr', 'recap', 'digest'],
  status: ['info', 'limits', 'usage', 'state', 'stat', 'stats'],
  steps: ['todo', 'todos', 'tasks', 'actions', 'step'],
  approve: ['ok', 'yes', 'lgtm', 'accept', 'approved', 'go-ahead'],
  done: ['tick', 'complete', 'completed'],
  reopen: ['untick', 'uncheck', 'undo'],
  pause: ['hold', 'wait', 'break'],
  help: ['commands', 'h'],
  ideas: ['idea'],
  refresh: ['reload'],
  config: ['settings'],
  explore: ['subtopic'],
  disable: ['kick', 'mute', 'remove', 'ban', 'silence'],
  enable: ['unmute', 'unban'],
  record: ['notes'],
};
const SYNONYMS = new Map(Object.entries(WORDS_FOR).flatMap(([command, words]) => words.map((word) => [word, command] as const)));

/**
 * The command a person most likely meant by a name the table lacks: a synonym (`!end`), else the one name
 * within two typing slips (`!aprove`, `!stauts`) and nearer than any other; undefined when none is.
 */
export function suggestCommand(table: CommandDefinition[], name: string): CommandDefinition | undefined {
  const wanted = name.toLowerCase();
  const synonym = SYNONYMS.get(wanted);
  if (synonym) return findCommand(table, synonym);
  const allowed = wanted.length <= 4 ? 1 : 2;
  // Names only: an alias is the source's word for another command (`start` approves), so a slip of it would mislead.
  // A name whose length alone is further off is not measured: a table per command for a 100,000-letter name took seconds.
  const distances = table.map((command) => (Math.abs(wanted.length - command.name.length) > allowed ? Infinity : typingDistance(wanted, command.name)));
  const nearest = Math.min(...distances);
  const closest = table.filter((_, index) => distances[index] === nearest);
  // Two commands as near as each other: naming one would be a guess.
  return nearest <= allowed && closest.length === 1 ? closest[0] : undefined;
}

/**
 * The reply to a command the table lacks, naming the one the person likely meant. Words after it ("!wow, that's it")
 * were meant for the room: the reply says they were not posted, so nothing said is lost without the person knowing.
 */
export function unknownCommand(table: CommandDefinition[], name: string, args = ''): string {
  const meant = suggestCommand(table, name);
  const hint = meant ? ` Did you mean \`!${meant.name}\` (${meant.description})?` : '';
  const unposted = args.trim() === '' ? '' : ' Your message was not posted to the discussion: send it without the leading `!` to say it there.';
  return `Unknown command \`!${shownName(name)}\`.${hint} Type \`!help\` for the list.${unposted}`;
}

/** A name as the reply shows it: short (a pasted wall of letters is no reply of several messages) and without backticks. */
function shownName(name: string): string {
  const plain = name.replaceAll('`', '');
  return plain.length <= SHOWN_NAME_CHARS ? plain : `${clipText(plain, SHOWN_NAME_CHARS)}…`;
}

const SHOWN_NAME_CHARS = 40;

/** Edits (a letter added, left out, changed, or two swapped) between two words. */
function typingDistance(first: string, second: string): number {
  const rows = Array.from({ length: first.length + 1 }, (_, row) =>
    Array.from({ length: second.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row <= first.length; row += 1) {
    for (let column = 1; column <= second.length; column += 1) {
      const change = first[row - 1] === second[column - 1] ? 0 : 1;
      let best = Math.min(rows[row - 1]![column]! + 1, rows[row]![column - 1]! + 1, rows[row - 1]![column - 1]! + change);
      if (row > 1 && column > 1 && first[row - 1] === second[column - 2] && first[row - 2] === second[column - 1])
        best = Math.min(best, rows[row - 2]![column - 2]! + 1);
      rows[row]![column] = best;
    }
  }
  return rows[first.length]![second.length]!;
}

/** `!help`: every command with its usage; `!help <command>`: that one in full (where it applies, its other names). */
export function formatHelp(table: CommandDefinition[], about = ''): string {
  const wanted = about.trim().replace(/^[!/]/, '');
  if (wanted !== '') return commandHelp(table, wanted);
  // In the catalog's order (the one Discord shows the slash commands in), not the order the handlers were written in.
  const position = (name: string) => COMMAND_CATALOG.findIndex((spec) => spec.name === name);
  const lines = [...table]
    .sort((first, second) => position(first.name) - position(second.name))
    .map((command) => `\`${command.usage}\` — ${command.description}${command.admin ? ' *(admin)*' : ''}`);
  return ['**Commands**', ...lines].join('\n');
}

/** One command in full: usage, what it does, the states it works in, its other names, whether it is for admins. */
function commandHelp(table: CommandDefinition[], name: string): string {
  const command = findCommand(table, name);
  if (!command) return unknownCommand(table, name);
  const where = command.states === null ? 'Works anywhere, in a session or not.' : `Works while the session is ${spokenStates(command.states)}.`;
  return [
    `\`${command.usage}\` — ${command.description}`,
    where,
    ...(command.aliases.length > 0 ? [`Also: ${command.aliases.map((alias) => `\`!${alias}\``).join(', ')}.`] : []),
    ...(command.admin ? ['For admins (Manage Server permission or the admin role).'] : []),
    ...(command.unlimited ? ['Never rate-limited.'] : []),
  ].join('\n');
}

/** Session states as words: "planning, awaiting approval or active". */
function spokenStates(states: readonly SessionStatus[]): string {
  const words = states.map((state) => state.replace(/_/g, ' '));
  return spokenList(words, 'or');
}
