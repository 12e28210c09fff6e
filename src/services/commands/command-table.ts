import { ALL_STATUSES, SESSION_TRANSITIONS, type Session, type SessionStatus } from '../../core/domain.ts';
import { COMMAND_CATALOG } from '../../core/command-catalog.ts';
import type { CommandInvocation, ReplyButton } from '../../core/ports.ts';

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

/** Looks a command up by name or alias. */
export function findCommand(table: CommandDefinition[], name: string): CommandDefinition | undefined {
  const wanted = name.toLowerCase();
  return table.find((command) => command.name === wanted || command.aliases.includes(wanted));
}

/** `!help`: every command with its usage. */
export function formatHelp(table: CommandDefinition[]): string {
  // In the catalog's order (the one Discord shows the slash commands in), not the order the handlers were written in.
  const position = (name: string) => COMMAND_CATALOG.findIndex((spec) => spec.name === name);
  const lines = [...table]
    .sort((first, second) => position(first.name) - position(second.name))
    .map((command) => `\`${command.usage}\` — ${command.description}${command.admin ? ' *(admin)*' : ''}`);
  return ['**Commands**', ...lines].join('\n');
}
