/** Mentions as Discord resolves them: `@everyone`, users and roles parsed from the content, filtered by `allowed_mentions`. */
import { PermissionFlagsBits } from 'discord.js';
import type { MentionOutcome, RecordedMessage } from './fake-model.ts';
import type { FakeDiscordState } from './fake-state.ts';

/** Who a message pings: Discord parses the content, then `allowed_mentions` filters it. */
export function resolveMentions(state: FakeDiscordState, record: RecordedMessage): MentionOutcome {
  const allowed = record.allowedMentions;
  const parse = new Set(allowed ? (allowed.parse ?? []) : ['users', 'roles', 'everyone']);
  const mayPingEveryone =
    record.origin === 'webhook' || (state.permissionsOf(record.authorId, state.guildOf(record.channelId)) & PermissionFlagsBits.MentionEveryone) !== 0n;
  const everyone = /@(everyone|here)\b/.test(record.content) && parse.has('everyone') && mayPingEveryone;
  const userIds = [...record.content.matchAll(/<@!?(\d+)>/g)].map((match) => match[1] ?? '');
  const roleIds = [...record.content.matchAll(/<@&(\d+)>/g)].map((match) => match[1] ?? '');
  return {
    everyone,
    userIds: [...new Set(userIds)].filter((id) => state.users.has(id) && (parse.has('users') || (allowed?.users ?? []).includes(id))),
    roleIds: [...new Set(roleIds)].filter((id) => state.roles.has(id) && (parse.has('roles') || (allowed?.roles ?? []).includes(id))),
  };
}
