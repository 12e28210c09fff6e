/** Discord's validation of message bodies, webhook names and thread names, with its real error codes. */
import type { APIAllowedMentions, APIEmbed } from 'discord.js';
import { emptyMessage, invalidFormBody } from './discord-errors.ts';
import { UPLOADS_KEY } from './uploads.ts';

/** A message body after validation. */
export interface ValidMessageBody {
  content: string;
  embeds: APIEmbed[];
  components: unknown[];
  allowedMentions: APIAllowedMentions | null;
  flags: number;
}

type FieldError = { path: string; code: string; message: string };

/** Validates a create/edit message body; `partial` (edits) allows leaving fields out. */
export function validateMessageBody(body: Record<string, unknown>, options: { partial: boolean }): Partial<ValidMessageBody> {
  const errors: FieldError[] = [];
  const result: Partial<ValidMessageBody> = {};
  if (body['content'] !== undefined && body['content'] !== null) {
    const content = String(body['content']);
    if (content.length > 2000) errors.push({ path: 'content', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' });
    result.content = content;
  }
  if (Array.isArray(body['embeds'])) {
    result.embeds = body['embeds'] as APIEmbed[];
    errors.push(...embedErrors(result.embeds));
  }
  if (Array.isArray(body['components'])) {
    result.components = body['components'];
    errors.push(...componentErrors(result.components));
  }
  if (body['allowed_mentions'] !== undefined && body['allowed_mentions'] !== null) {
    result.allowedMentions = body['allowed_mentions'] as APIAllowedMentions;
    errors.push(...allowedMentionErrors(result.allowedMentions));
  }
  if (typeof body['flags'] === 'number') result.flags = body['flags'];
  if (errors.length > 0) throw invalidFormBody(errors);
  const uploads = Array.isArray(body[UPLOADS_KEY]) ? body[UPLOADS_KEY].length : 0;
  const empty = !result.content && (result.embeds ?? []).length === 0 && (result.components ?? []).length === 0 && uploads === 0;
  if (!options.partial && empty) throw emptyMessage();
  if (options.partial && result.content === '' && (result.embeds ?? []).length === 0 && body['embeds'] !== undefined) throw emptyMessage();
  return result;
}

/** Webhook names (on create) and per-message usernames: 1-80 characters, never "clyde" or "discord". */
export function validateWebhookName(name: unknown, field: 'name' | 'username'): string {
  const text = typeof name === 'string' ? name : '';
  if (text.length < 1 || text.length > 80)
    throw invalidFormBody([{ path: field, code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 80 in length.' }]);
  for (const forbidden of ['clyde', 'discord']) {
    if (text.toLowerCase().includes(forbidden)) {
      throw invalidFormBody([{ path: field, code: 'USERNAME_INVALID_CONTAINS', message: `Username cannot contain "${forbidden}"` }]);
    }
  }
  return text;
}

/** Thread names: 1-100 characters. */
export function validateThreadName(name: unknown): string {
  const text = typeof name === 'string' ? name : '';
  if (text.length < 1 || text.length > 100)
    throw invalidFormBody([{ path: 'name', code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }]);
  return text;
}

/** Auto-archive durations Discord accepts (minutes). */
export function validateAutoArchive(value: unknown): number {
  if (value === undefined) return 4320;
  if (![60, 1440, 4320, 10080].includes(Number(value))) {
    throw invalidFormBody([{ path: 'auto_archive_duration', code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {60, 1440, 4320, 10080}.' }]);
  }
  return Number(value);
}

function embedErrors(embeds: APIEmbed[]): FieldError[] {
  const errors: FieldError[] = [];
  if (embeds.length > 10) errors.push({ path: 'embeds', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' });
  let total = 0;
  embeds.forEach((embed, index) => {
    const limits: [string, string | undefined, number][] = [
      ['title', embed.title, 256],
      ['description', embed.description, 4096],
      ['author.name', embed.author?.name, 256],
      ['footer.text', embed.footer?.text, 2048],
    ];
    for (const [field, value, max] of limits) {
      total += value?.length ?? 0;
      if ((value?.length ?? 0) > max)
        errors.push({ path: `embeds.${index}.${field}`, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` });
    }
  });
  if (total > 6000) errors.push({ path: 'embeds', code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' });
  return errors;
}

function componentErrors(rows: unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  if (rows.length > 5) errors.push({ path: 'components', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' });
  const customIds = new Set<string>();
  rows.forEach((row, rowIndex) => {
    const children = (row as { components?: { custom_id?: string; label?: string }[] }).components ?? [];
    if (children.length < 1 || children.length > 5)
      errors.push({ path: `components.${rowIndex}.components`, code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 5 in length.' });
    children.forEach((child, childIndex) => {
      if (child.custom_id !== undefined && customIds.has(child.custom_id))
        errors.push({
          path: `components.${rowIndex}.components.${childIndex}.custom_id`,
          code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
          message: 'Component custom id cannot be duplicated',
        });
      if (child.custom_id !== undefined) customIds.add(child.custom_id);
      if ((child.custom_id?.length ?? 0) > 100)
        errors.push({
          path: `components.${rowIndex}.components.${childIndex}.custom_id`,
          code: 'BASE_TYPE_MAX_LENGTH',
          message: 'Must be 100 or fewer in length.',
        });
      if ((child.label?.length ?? 0) > 80)
        errors.push({ path: `components.${rowIndex}.components.${childIndex}.label`, code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 80 or fewer in length.' });
    });
  });
  return errors;
}

function allowedMentionErrors(allowed: APIAllowedMentions): FieldError[] {
  const parse = allowed.parse ?? [];
  const errors: FieldError[] = [];
  for (const value of parse) {
    if (!['users', 'roles', 'everyone'].includes(value))
      errors.push({ path: 'allowed_mentions.parse', code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {users, roles, everyone}.' });
  }
  if (parse.includes('users' as never) && (allowed.users?.length ?? 0) > 0) {
    errors.push({
      path: 'allowed_mentions',
      code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
      message: 'parse:["users"] and users: [ids...] are mutually exclusive.',
    });
  }
  if (parse.includes('roles' as never) && (allowed.roles?.length ?? 0) > 0) {
    errors.push({
      path: 'allowed_mentions',
      code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
      message: 'parse:["roles"] and roles: [ids...] are mutually exclusive.',
    });
  }
  return errors;
}
