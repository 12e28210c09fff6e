/**
 * The one list of commands: names, words and arguments, shared by the `!` command table (services), its `!help`,
 * and the `/brainstorm` slash command (bot). A command is added here once; the handlers live in the command
 * service, keyed by name.
 */

/** An argument of a command (a string option of its slash subcommand, required unless `optional`). */
export interface CommandArgument {
  name: string;
  description: string;
  maxLength?: number;
  /** Offer the participants' names as choices (`/brainstorm enable ai:`). */
  participantChoices?: boolean;
  /** Offer the presets' names as choices (`/brainstorm start preset:`). */
  presetChoices?: boolean;
  /** May be left out; given, it reaches the command as `name:value` after the required arguments. */
  optional?: boolean;
}

/** One command as people meet it. */
export interface CommandSpec {
  name: string;
  aliases: string[];
  usage: string;
  description: string;
  admin: boolean;
  args: CommandArgument[];
  /** Where it is offered: as `!name` in a message, as `/brainstorm name`, or both. */
  surfaces: { bang: boolean; slash: boolean };
}

/** How long what `!focus` names may be: a subject to turn to, not a message (that is said in the discussion). */
export const FOCUS_MAX_CHARS = 300;

const TOPIC: CommandArgument = { name: 'topic', description: 'What to brainstorm about', maxLength: 4000 };
const STEP: CommandArgument = { name: 'step', description: 'The step’s number in !steps, or words of it', maxLength: 200 };
const PRESET: CommandArgument = { name: 'preset', description: 'The kind of session (roster, roles, phases, limits)', optional: true, presetChoices: true };

function command(name: string, usage: string, description: string, extra: Partial<Omit<CommandSpec, 'name' | 'usage' | 'description'>> = {}): CommandSpec {
  return { name, aliases: [], admin: false, args: [], surfaces: { bang: true, slash: true }, usage, description, ...extra };
}

/** Every command, in the order `!help` and Discord list them. */
export const COMMAND_CATALOG: readonly CommandSpec[] = [
  // `/brainstorm start topic:` opens a session; as a `!` word, `start` is the source's alias of `!approve`.
  // Inside a thread or channel where people already talked, the Planner reads their last messages.
  command('start', '/brainstorm start <topic> [preset:<name>]', 'start a brainstorm on a topic (opens a thread)', {
    args: [TOPIC, PRESET],
    surfaces: { bang: false, slash: true },
  }),
  command('brainstorm', '!brainstorm <topic> [preset:<name>]', 'start a brainstorm from the conversation here (the Planner reads it)', {
    args: [TOPIC, PRESET],
    surfaces: { bang: true, slash: false },
  }),
  command('preset', '!preset <name>', 'choose the kind of session while it is planned (no name: list the presets)', {
    args: [{ name: 'name', description: 'The preset', presetChoices: true }],
  }),
  command('approve', '!approve', 'approve the plan and start the discussion', { aliases: ['start'] }),
  command('stop', '!stop', 'stop the discussion now (keeps what was said) and wrap up'),
  command('pause', '!pause', 'pause the discussion'),
  command('continue', '!continue', 'resume a paused discussion (or let the AIs go on)'),
  command('status', '!status', 'status and limits'),
  command('refresh', '!refresh', 'reload the context from the record'),
  command('focus', '!focus [what]', 'ask the Moderator to refocus the discussion (on what you name, if you do)', {
    args: [{ name: 'on', description: 'What to focus on (leave out: the objectives)', maxLength: FOCUS_MAX_CHARS, optional: true }],
  }),
  command('summary', '!summary', 'post a summary of the session so far (made afresh when needed)'),
  command('record', '!record', 'post the detailed record so far (in Discord, as a Markdown file)'),
  command('steps', '!steps', 'list the next steps the record holds, ticked as people ticked them in Notion'),
  command('done', '!done <number or words>', 'tick a next step in the record (and in Notion)', { args: [STEP] }),
  command('reopen', '!reopen <number or words>', 'open a ticked next step again', { args: [STEP] }),
  command('ideas', '!ideas', 'list the ideas of the session: who proposed, built on, objected'),
  command('explore', '!explore <topic>', 'open a linked sub-session on a subtopic', { args: [{ ...TOPIC, description: 'The subtopic to explore' }] }),
  command('config', '!config <setting> <value>', 'change a setting (no arguments: list them)', {
    admin: true,
    args: [
      { name: 'setting', description: 'The setting to change', maxLength: 100 },
      { name: 'value', description: 'Its new value', maxLength: 200 },
    ],
  }),
  command('enable', '!enable <ai>', 'let a participant speak again', {
    admin: true,
    args: [{ name: 'ai', description: 'The participant', participantChoices: true }],
  }),
  command('disable', '!disable <ai>', 'take a participant out of every session', {
    admin: true,
    args: [{ name: 'ai', description: 'The participant', participantChoices: true }],
  }),
  command('reset', '!reset', "reset this session's usage counters, elapsed time and Moderator checks", { admin: true }),
  command('help', '!help [command]', 'this list, or one command in full (`!help stop`)', {
    args: [{ name: 'command', description: 'The command to explain', maxLength: 40, optional: true }],
    surfaces: { bang: true, slash: false },
  }),
];

/** The spec of a command by name; throws for a name the catalog lacks (a programming error, found at start). */
export function commandSpec(name: string): CommandSpec {
  const spec = COMMAND_CATALOG.find((entry) => entry.name === name);
  if (!spec) throw new Error(`No command "${name}" in the command catalog.`);
  return spec;
}
