/**
 * Buttons that run a command (`!steps`: "Done 2" under the list). Discord hands back only the button's custom id, so
 * the command, its arguments and the command whose answer then replaces the message are packed into it.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIComponentInActionRow } from 'discord.js';
import type { ReplyButton } from '../core/ports.ts';
import { clipText } from '../core/text-clip.ts';

/** What a command button's custom id starts with. */
const PREFIX = 'brainstorm:run:';
/** Discord's limits: a custom id of 100 characters, a label of 80, five buttons a row, five rows a message. */
const CUSTOM_ID_LIMIT = 100;
const LABEL_LIMIT = 80;
const BUTTONS_PER_ROW = 5;
export const ROWS_PER_MESSAGE = 5;

/** The custom id of a button, or null when it would not fit (or its parts could not be read back). */
function customIdOf(button: ReplyButton): string | null {
  const parts = [button.command, button.args, button.then ?? ''];
  if (parts.some((part) => part.includes(':'))) return null;
  const id = `${PREFIX}${parts.join(':')}`;
  return id.length <= CUSTOM_ID_LIMIT ? id : null;
}

/** The rows of buttons under a reply (none: no rows); a button that cannot be packed is left out, its command still typed. */
export function commandButtonRows(buttons: readonly ReplyButton[] = []): APIActionRowComponent<APIButtonComponent>[] {
  const components = buttons.flatMap((button): APIButtonComponent[] => {
    const customId = customIdOf(button);
    return customId ? [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId, label: clipText(button.label, LABEL_LIMIT) }] : [];
  });
  const rows: APIActionRowComponent<APIButtonComponent>[] = [];
  for (let start = 0; start < components.length && rows.length < ROWS_PER_MESSAGE; start += BUTTONS_PER_ROW)
    rows.push({ type: ComponentType.ActionRow, components: components.slice(start, start + BUTTONS_PER_ROW) });
  return rows;
}

/** The command a pressed button runs, or null for a custom id that is not a command button. */
export function commandOfButton(customId: string): { command: string; args: string; then: string | null } | null {
  if (!customId.startsWith(PREFIX)) return null;
  const [command = '', args = '', then = ''] = customId.slice(PREFIX.length).split(':');
  return command ? { command, args, then: then || null } : null;
}

/** The button rows of a message without the button `customId` (a pressed "Done n" under the closing); a row left empty goes. */
export function rowsWithoutButton<Child extends APIComponentInActionRow>(
  rows: readonly APIActionRowComponent<Child>[],
  customId: string,
): APIActionRowComponent<Child>[] {
  return rows.flatMap((row) => {
    const components = row.components.filter((child) => !('custom_id' in child) || child.custom_id !== customId);
    return components.length > 0 ? [{ ...row, components }] : [];
  });
}
