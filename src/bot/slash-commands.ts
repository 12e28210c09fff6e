/** The `/brainstorm` slash command: its definition (registered per guild) and how an invocation becomes arguments. */
import { COMMAND_CATALOG, type CommandSpec } from '../core/command-catalog.ts';
import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { clipText } from '../core/text-clip.ts';

/** The top-level command name. */
export const BRAINSTORM_COMMAND = 'brainstorm';

/** Discord's limit on a subcommand's description. */
const DESCRIPTION_LIMIT = 100;

/** The catalog's commands offered as subcommands; admin ones are checked by the command table, not Discord. */
const SUBCOMMANDS = COMMAND_CATALOG.filter((command) => command.surfaces.slash);

/** "approve the plan…" reads as "Approve the plan…" in Discord's list, with "Admin: " before admin commands. */
function slashDescription(command: CommandSpec): string {
  const text = `${command.admin ? 'Admin: ' : ''}${command.description.charAt(0).toUpperCase()}${command.description.slice(1)}`;
  return text.length <= DESCRIPTION_LIMIT ? text : `${clipText(text, DESCRIPTION_LIMIT - 1)}…`;
}

function choicesOf(names: string[]): { name: string; value: string }[] {
  return names.slice(0, 25).map((name) => ({ name: clipText(name, 100), value: clipText(name, 100) }));
}

/** The command definitions to bulk-register in a guild; participants and presets become choices of their options. */
export function slashCommandDefinitions(participants: string[], presets: string[] = []): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const choices = choicesOf(participants);
  const presetChoices = choicesOf(presets);
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
        description: slashDescription(subcommand),
        options: subcommand.args.map((option) => ({
          type: ApplicationCommandOptionType.String,
          name: option.name,
          description: option.description,
          required: option.optional !== true,
          ...(option.maxLength ? { max_length: option.maxLength } : {}),
          ...(option.participantChoices && choices.length > 0 ? { choices } : {}),
          ...(option.presetChoices && presetChoices.length > 0 ? { choices: presetChoices } : {}),
        })),
      })),
    },
  ];
}

/**
 * The argument text of a subcommand, its options in declared order (as `!config setting value` would have it);
 * an optional one given comes as `name:value` (`/brainstorm start topic:… preset:retrospective`).
 */
export function subcommandArgs(subcommand: string, readOption: (name: string) => string | null): string {
  const spec = SUBCOMMANDS.find((entry) => entry.name === subcommand);
  return (spec?.args ?? [])
    .map((option) => {
      const value = readOption(option.name)?.trim() ?? '';
      return option.optional && value !== '' ? `${option.name}:${value}` : value;
    })
    .filter((value) => value !== '')
    .join(' ');
}
