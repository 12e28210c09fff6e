/** The `/brainstorm` slash command: its definition (registered per guild) and how an invocation becomes arguments. */
import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';

/** The top-level command name. */
export const BRAINSTORM_COMMAND = 'brainstorm';

interface OptionSpec {
  name: string;
  description: string;
  /** Offer the participants' names as choices. */
  participantChoices?: boolean;
  maxLength?: number;
}

interface SubcommandSpec {
  name: string;
  description: string;
  options?: OptionSpec[];
}

/**
 * Every subcommand, in the same words as the `!` commands. The admin ones (config, enable, disable, reset) are
 * checked by the command table: Discord's `default_member_permissions` applies to a whole top-level command and
 * would hide the everyday subcommands from everyone else.
 */
const SUBCOMMANDS: SubcommandSpec[] = [
  { name: 'start', description: 'Start a brainstorm on a topic (opens a thread)', options: [{ name: 'topic', description: 'What to brainstorm about', maxLength: 4000 }] },
  { name: 'approve', description: 'Approve the proposed plan and start the discussion' },
  { name: 'stop', description: 'Stop this session now (everything said is kept)' },
  { name: 'pause', description: 'Pause the discussion' },
  { name: 'continue', description: 'Resume a paused discussion' },
  { name: 'status', description: 'Show the status and limits of this session' },
  { name: 'refresh', description: 'Refresh the context from the latest record' },
  { name: 'focus', description: 'Ask the moderator to bring the talk back to the topic' },
  { name: 'summary', description: 'Ask for a summary of the session so far' },
  { name: 'explore', description: 'Explore a subtopic in a new session', options: [{ name: 'topic', description: 'The subtopic to explore', maxLength: 4000 }] },
  {
    name: 'config',
    description: 'Admin: change a setting',
    options: [
      { name: 'setting', description: 'The setting to change', maxLength: 100 },
      { name: 'value', description: 'Its new value', maxLength: 200 },
    ],
  },
  { name: 'enable', description: 'Admin: let a participant speak again', options: [{ name: 'ai', description: 'The participant', participantChoices: true }] },
  { name: 'disable', description: 'Admin: stop a participant from speaking', options: [{ name: 'ai', description: 'The participant', participantChoices: true }] },
  { name: 'reset', description: "Admin: reset this session's limits" },
];

/** The command definitions to bulk-register in a guild; `participants` become choices of the `ai` options. */
export function slashCommandDefinitions(participants: string[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const choices = participants.slice(0, 25).map((name) => ({ name: name.slice(0, 100), value: name.slice(0, 100) }));
  return [
    {
      type: ApplicationCommandType.ChatInput,
      name: BRAINSTORM_COMMAND,
      description: 'Brainstorm with several AI models',
      contexts: [InteractionContextType.Guild],
      default_member_permissions: null,
      options: SUBCOMMANDS.map((subcommand) => ({
        type: ApplicationCommandOptionType.Subcommand,
        name: subcommand.name,
        description: subcommand.description,
        options: (subcommand.options ?? []).map((option) => ({
          type: ApplicationCommandOptionType.String,
          name: option.name,
          description: option.description,
          required: true,
          ...(option.maxLength ? { max_length: option.maxLength } : {}),
          ...(option.participantChoices && choices.length > 0 ? { choices } : {}),
        })),
      })),
    },
  ];
}

/** The argument text of a subcommand, its options in declared order (as `!config setting value` would have it). */
export function subcommandArgs(subcommand: string, readOption: (name: string) => string | null): string {
  const spec = SUBCOMMANDS.find((entry) => entry.name === subcommand);
  return (spec?.options ?? [])
    .map((option) => readOption(option.name)?.trim() ?? '')
    .filter((value) => value !== '')
    .join(' ');
}
