/**
 * What keeps the bot from working in Discord, said so an admin can fix it: a login Discord refuses (a bad token, the
 * Message Content intent not turned on), and brainstorm channels the bot cannot use (a wrong id, a forum or voice
 * channel, a missing permission). Without this the bot comes online and stays silent, and nobody knows why.
 */
import { ChannelType, DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, type Client, type GuildBasedChannel } from 'discord.js';
import { BrainstormError } from '../core/errors.ts';

/** A problem with the Discord setup: `error` keeps the bot from working there, `warning` makes it work worse. */
export interface SetupProblem {
  severity: 'error' | 'warning';
  text: string;
}

const PORTAL = 'the Discord Developer Portal (your application → Bot)';

type Permission = readonly [name: string, flag: bigint];

/** The permissions without which the bot cannot hold a session in a brainstorm text channel. */
const REQUIRED: readonly Permission[] = [
  ['View Channel', PermissionFlagsBits.ViewChannel],
  ['Send Messages', PermissionFlagsBits.SendMessages],
  ['Read Message History', PermissionFlagsBits.ReadMessageHistory],
  ['Create Public Threads', PermissionFlagsBits.CreatePublicThreads],
  ['Send Messages in Threads', PermissionFlagsBits.SendMessagesInThreads],
];
/** In a forum, people open the posts (threads) and the bot only writes in them. */
const REQUIRED_IN_FORUM: readonly Permission[] = [
  ['View Channel', PermissionFlagsBits.ViewChannel],
  ['Read Message History', PermissionFlagsBits.ReadMessageHistory],
  ['Send Messages in Threads', PermissionFlagsBits.SendMessagesInThreads],
];

const CHANNEL_KINDS: Partial<Record<ChannelType, string>> = {
  [ChannelType.GuildMedia]: 'a media channel',
  [ChannelType.GuildVoice]: 'a voice channel',
  [ChannelType.GuildStageVoice]: 'a stage channel',
  [ChannelType.GuildCategory]: 'a category',
  [ChannelType.PublicThread]: 'a thread',
  [ChannelType.PrivateThread]: 'a thread',
  [ChannelType.AnnouncementThread]: 'a thread',
};

/** The bot could not log in to Discord for a reason only its admin can fix. */
export class DiscordSetupError extends BrainstormError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('forbidden', message, options);
  }
}

/** The admin's fix for a failed login, as a DiscordSetupError; the error itself when it is not one of those. */
export function explainLoginFailure(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  if (code === 'TokenInvalid' || /invalid token|authentication failed/i.test(message)) {
    return new DiscordSetupError(`Discord refused DISCORD_BOT_TOKEN. Copy the bot's token again in ${PORTAL} → Reset Token, set it in .env, and start again.`, {
      cause: error,
    });
  }
  if (code === 'DisallowedIntents' || /disallowed intents/i.test(message)) {
    return new DiscordSetupError(
      `Discord refused the Message Content intent, which the bot needs to read what people write. Turn on MESSAGE CONTENT INTENT under Privileged Gateway Intents in ${PORTAL}, then start again.`,
      { cause: error },
    );
  }
  return error;
}

/** Where the brainstorm channels must be: `DISCORD_GUILD_ID`, and the guilds on this process's shards. */
export interface ChannelScope {
  guildId: string | undefined;
  ownsGuild: (guildId: string) => boolean;
}

/** The problems of one brainstorm channel, as the bot sees it now (none when it is ready for sessions). */
export async function channelProblems(client: Client, channelId: string, scope: ChannelScope): Promise<SetupProblem[]> {
  const { guildId } = scope;
  const name = `DISCORD_CHANNEL_ID ${channelId}`;
  let channel;
  try {
    channel = await client.channels.fetch(channelId, { force: true });
  } catch (error) {
    return [{ severity: 'error', text: unreachable(name, error) }];
  }
  if (!channel || !('guild' in channel)) return [{ severity: 'error', text: `${name} is not a server channel: use a text channel of your server.` }];
  const label = `${name} (#${channel.name})`;
  // Another process's shard serves that server, and checks it.
  if (!scope.ownsGuild(channel.guildId)) return [];
  if (guildId && channel.guildId !== guildId) {
    return [{ severity: 'error', text: `${label} is in another server than DISCORD_GUILD_ID ${guildId}: the bot ignores it.` }];
  }
  if (channel.type !== ChannelType.GuildText && channel.type !== ChannelType.GuildAnnouncement && channel.type !== ChannelType.GuildForum) {
    const kind = CHANNEL_KINDS[channel.type] ?? 'not a text channel';
    return [
      {
        severity: 'error',
        text: `${label} is ${kind}: Brainstorm holds a session per topic in a thread of a text channel, or in a post of a forum. Point DISCORD_CHANNEL_ID at one.`,
      },
    ];
  }
  return permissionProblems(client, channel, label, channel.type === ChannelType.GuildForum ? REQUIRED_IN_FORUM : REQUIRED);
}

function unreachable(name: string, error: unknown): string {
  const code = error instanceof DiscordAPIError ? error.code : null;
  if (code === RESTJSONErrorCodes.UnknownChannel) {
    return `${name} does not exist, or is in a server the bot has not joined. Copy the channel's id again (Developer Mode → Copy Channel ID) and invite the bot to its server.`;
  }
  if (code === RESTJSONErrorCodes.MissingAccess) return `The bot cannot see ${name}: give its role View Channel there.`;
  return `${name} could not be read (${error instanceof Error ? error.message : String(error)}).`;
}

function permissionProblems(client: Client, channel: GuildBasedChannel, label: string, required: readonly Permission[]): SetupProblem[] {
  const granted = client.user ? channel.permissionsFor(client.user) : null;
  const has = (flag: bigint) => granted?.has(flag) ?? false;
  const problems: SetupProblem[] = [];
  const missing = required.filter(([, flag]) => !has(flag)).map(([permissionName]) => permissionName);
  if (missing.length > 0) {
    problems.push({ severity: 'error', text: `The bot lacks ${missing.join(', ')} in ${label}: grant them to its role there, or it cannot hold sessions.` });
  }
  if (!has(PermissionFlagsBits.ManageWebhooks)) {
    problems.push({
      severity: 'warning',
      text: `The bot lacks Manage Webhooks in ${label}: the participants will post as the bot, each answer headed with its name. Grant it for their own names and avatars.`,
    });
  }
  return problems;
}
