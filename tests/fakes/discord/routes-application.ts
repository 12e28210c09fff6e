/** REST routes for the gateway URL, the bot user, the application, guild members/roles and slash commands. */
import { DiscordHttpError, invalidFormBody, missingAccess, unknownMember } from './discord-errors.ts';
import type { RegisteredCommand } from './fake-model.ts';
import type { Route } from './http-router.ts';
import { channelPayload, memberPayload, rolePayload, userPayload } from './payloads.ts';
import type { RouteDeps } from './route-deps.ts';

/** Gateway, application, guild and command routes (bot auth). */
export function applicationRoutes(deps: RouteDeps): Route[] {
  const { state } = deps;
  const bot = (method: string, pattern: string, name: string, handler: Route['handler'], major?: string): Route => ({
    method,
    pattern,
    name,
    auth: 'bot',
    handler,
    ...(major ? { major } : {}),
  });
  // The bot is a member of every guild of the fake; any other guild id is one it cannot see.
  const requireGuild = (guildId: string | undefined): string => {
    if (guildId === undefined || !state.guilds.has(guildId)) throw missingAccess();
    return guildId;
  };
  return [
    bot('GET', '/gateway/bot', 'gateway.bot', () => ({
      body: { url: deps.gatewayUrl(), shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 } },
    })),
    bot('GET', '/users/@me', 'user.me', () => ({ body: userPayload(state.requireUser(deps.botUserId)) })),
    bot('GET', '/applications/@me', 'application.me', () => ({
      body: {
        id: state.applicationId,
        name: 'Brainstorm',
        flags: 0,
        bot_public: false,
        bot_require_code_grant: false,
        description: '',
        icon: null,
        verify_key: 'fake',
      },
    })),
    bot(
      'GET',
      '/guilds/:guildId/members/:userId',
      'guild.member',
      ({ params }) => {
        requireGuild(params['guildId']);
        const member = state.members.get(params['userId'] ?? '');
        if (!member) throw unknownMember();
        return { body: memberPayload(member, state.requireUser(member.userId)) };
      },
      'guildId',
    ),
    bot(
      'GET',
      '/guilds/:guildId/roles',
      'guild.roles',
      ({ params }) => {
        const guildId = requireGuild(params['guildId']);
        // The first guild holds the named roles; every guild has its own @everyone.
        const roles =
          guildId === state.guildId
            ? [...state.roles.values()].filter((role) => role.id === guildId || !state.guilds.has(role.id))
            : [state.roles.get(guildId)];
        return { body: roles.flatMap((role) => (role ? [rolePayload(role)] : [])) };
      },
      'guildId',
    ),
    bot(
      'GET',
      '/guilds/:guildId/threads/active',
      'guild.threads.active',
      ({ params }) => {
        const guildId = requireGuild(params['guildId']);
        const threads = [...state.channels.values()].filter((channel) => channel.kind === 'thread' && channel.guildId === guildId && channel.archived !== true);
        return { body: { threads: threads.map((thread) => channelPayload(thread)), members: [] } };
      },
      'guildId',
    ),
    bot(
      'GET',
      '/guilds/:guildId/channels',
      'guild.channels',
      ({ params }) => {
        const guildId = requireGuild(params['guildId']);
        return {
          body: [...state.channels.values()]
            .filter((channel) => channel.kind !== 'thread' && channel.guildId === guildId)
            .map((channel) => channelPayload(channel)),
        };
      },
      'guildId',
    ),
    bot(
      'PUT',
      '/applications/:applicationId/guilds/:guildId/commands',
      'commands.bulk_overwrite',
      ({ params, body }) => {
        const guildId = requireGuild(params['guildId']);
        if (params['applicationId'] !== state.applicationId) throw new DiscordHttpError(403, 50001, 'Missing Access');
        const list = Array.isArray(body['value']) ? (body['value'] as Record<string, unknown>[]) : [];
        validateCommands(list);
        // A bulk overwrite replaces that guild's commands only.
        const others = state.commands.filter((command) => command.guildId !== guildId);
        const registered = list.map((command): RegisteredCommand => ({ id: state.ids.next(), guildId, body: command }));
        state.commands.splice(0, state.commands.length, ...others, ...registered);
        state.commandOverwrites.push(guildId);
        state.changed();
        return { body: registered.map((command) => commandPayload(command, state.applicationId)) };
      },
      'guildId',
    ),
    bot(
      'GET',
      '/applications/:applicationId/guilds/:guildId/commands',
      'commands.list',
      ({ params }) => {
        const guildId = requireGuild(params['guildId']);
        return { body: state.commands.filter((command) => command.guildId === guildId).map((command) => commandPayload(command, state.applicationId)) };
      },
      'guildId',
    ),
  ];
}

function commandPayload(command: RegisteredCommand, applicationId: string): Record<string, unknown> {
  return {
    type: 1,
    default_member_permissions: null,
    ...command.body,
    id: command.id,
    application_id: applicationId,
    guild_id: command.guildId,
    version: command.id,
  };
}

/** Discord's rules for chat-input commands: lowercase names 1-32, descriptions 1-100, at most 25 options. */
function validateCommands(commands: Record<string, unknown>[]): void {
  const errors: { path: string; code: string; message: string }[] = [];
  if (commands.length > 100) errors.push({ path: 'value', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' });
  const check = (node: Record<string, unknown>, path: string): void => {
    const name = String(node['name'] ?? '');
    if (!/^[-_\p{Ll}\p{N}]{1,32}$/u.test(name))
      errors.push({ path: `${path}.name`, code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' });
    const description = String(node['description'] ?? '');
    if (description.length < 1 || description.length > 100)
      errors.push({ path: `${path}.description`, code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' });
    const options = Array.isArray(node['options']) ? (node['options'] as Record<string, unknown>[]) : [];
    if (options.length > 25) errors.push({ path: `${path}.options`, code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
    options.forEach((option, index) => check(option, `${path}.options.${index}`));
  };
  commands.forEach((command, index) => check(command, String(index)));
  if (errors.length > 0) throw invalidFormBody(errors);
}
