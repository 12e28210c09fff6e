/**
 * A fake Discord on 127.0.0.1 that a real discord.js `Client` logs in to: REST under `/api/v10` and a plain-JSON
 * gateway. It records every message so tests can assert what people would see, and acts as people.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayDispatchEvents, PermissionFlagsBits } from 'discord.js';
import type { FakeChannel, FakeGuild, FakeInteraction, FakeRole, FakeUser, RecordedMessage } from './fake-model.ts';
import { FakeDiscordState } from './fake-state.ts';
import { FakeGateway } from './gateway-server.ts';
import { FakeRouter } from './http-router.ts';
import { PersonActions, type PostOptions, type SlashCommandInput } from './person-actions.ts';
import { FakeRateLimits, type RateLimitInjection } from './rate-limits.ts';
import type { RouteDeps } from './route-deps.ts';
import { applicationRoutes } from './routes-application.ts';
import { channelRoutes } from './routes-channels.ts';
import { interactionCallbackRoutes } from './routes-interactions.ts';
import { webhookRoutes } from './routes-webhooks.ts';
import { deleteChannel, setThreadFlags } from './thread-lifecycle.ts';
import { missingAccess } from './discord-errors.ts';

/** Options of the fake. */
export interface FakeDiscordOptions {
  token?: string;
  /** Text channels to create, by name (default: `brainstorm`, `general`). */
  channelNames?: string[];
  /** Forum and voice channels to create, by name (none by default). */
  forumNames?: string[];
  voiceNames?: string[];
  heartbeatIntervalMs?: number;
  /** How long the bot has to answer an interaction (default 3000 ms, as Discord). */
  interactionDeadlineMs?: number;
  /** Requests per bucket per window before a real 429 (default 50 per second). */
  rateLimit?: { limit: number; windowMs: number };
  /**
   * The privileged intents the application has turned on in the developer portal (default: all). An IDENTIFY asking
   * for another is closed with 4014 Disallowed intent(s), as Discord does.
   */
  privilegedIntents?: number;
}

/** The permissions the bot's role holds by default: what docs/discord.md asks admins to grant. */
export const DEFAULT_BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.ManageWebhooks |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.UseApplicationCommands;

/** A running fake Discord and its helpers. */
export interface FakeDiscord {
  apiUrl: string;
  /** The fake's CDN (use as DISCORD_CDN_URL): serves the files people shared with content, until their `ex` time. */
  cdnUrl: string;
  gatewayUrl: string;
  token: string;
  guildId: string;
  applicationId: string;
  state: FakeDiscordState;
  router: FakeRouter;
  gateway: FakeGateway;
  rateLimits: FakeRateLimits;
  bot: FakeUser;
  /** `owner` owns the guild; `ada` has Manage Server; `bob` is a plain member; `fay` holds the `facilitators` role. */
  people: { owner: FakeUser; ada: FakeUser; bob: FakeUser; fay: FakeUser };
  roles: { admins: FakeRole; facilitators: FakeRole; bot: FakeRole };
  channels: Record<string, FakeChannel>;
  /** Adds a guild with text channels (people are members of every guild); `shard` places it on a shard of a sharded bot. */
  addGuild(name: string, channelNames: string[], shard?: { index: number; count: number }): { guild: FakeGuild; channels: Record<string, FakeChannel> };
  post(channelId: string, user: FakeUser, content: string, options?: PostOptions): RecordedMessage;
  /** A person opens a post in a forum: THREAD_CREATE, then its first message (whose id is the thread's). */
  createForumPost(forumId: string, user: FakeUser, title: string, content: string): RecordedMessage;
  /** Its author edits a message (MESSAGE_UPDATE, as Discord sends it: the whole message). */
  editAsAuthor(message: RecordedMessage, content: string): void;
  /** Its author (or a moderator) deletes a message (MESSAGE_DELETE). */
  deleteAsPerson(message: RecordedMessage): void;
  clickButton(message: RecordedMessage, customId: string, user: FakeUser): FakeInteraction;
  runSlashCommand(input: SlashCommandInput): FakeInteraction;
  /** Grants or takes away one permission from the bot (GUILD_ROLE_UPDATE tells the client). */
  setBotPermission(permission: bigint, granted: boolean): void;
  /** Deletes a webhook as a server admin would; later use answers 10015 Unknown Webhook. */
  deleteWebhook(webhookId: string): void;
  /**
   * Archives a thread (as inactivity does), or locks it too as a moderator closing it would (THREAD_UPDATE);
   * `dispatch: false` does it while the bot is away.
   */
  archiveThread(threadId: string, options?: { locked?: boolean; dispatch?: boolean }): void;
  /** Deletes a channel (with its threads) or a thread; `dispatch: false` does it while the bot is away. */
  deleteChannel(channelId: string, options?: { dispatch?: boolean }): void;
  /** Removes the bot from a server (GUILD_DELETE; its requests there answer 50001), or reports an outage of it. */
  removeBotFromGuild(guildId: string, options?: { outage?: boolean }): void;
  injectRateLimit(injection: RateLimitInjection): void;
  /** Closes the gateway sockets (4000: the client resumes). */
  disconnectGateway(code?: number): void;
  /** Visible messages of a channel or thread, oldest first. */
  messagesIn(channelId: string): RecordedMessage[];
  /** Resolves with the first truthy value of `probe`, re-checked after every change in the fake. */
  waitFor<T>(probe: () => T | null | undefined | false, options?: { timeoutMs?: number; description?: string }): Promise<T>;
  close(): Promise<void>;
}

/** Starts the fake on an ephemeral port of 127.0.0.1. */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = options.token ?? 'fake-bot-token.for-tests-only';
  const state = new FakeDiscordState();
  const world = populate(state, options.channelNames ?? ['brainstorm', 'general'], { forum: options.forumNames ?? [], voice: options.voiceNames ?? [] });
  const rateLimits = new FakeRateLimits(options.rateLimit ?? { limit: 50, windowMs: 1000 });
  const router = new FakeRouter(token, rateLimits);
  let gatewayUrl = '';
  const deps: RouteDeps = { state, botUserId: world.bot.id, gatewayUrl: () => gatewayUrl, interactionDeadlineMs: options.interactionDeadlineMs ?? 3000 };
  router.add([...applicationRoutes(deps), ...channelRoutes(deps), ...interactionCallbackRoutes(deps), ...webhookRoutes(deps)]);
  const server: Server = createServer((request, response) => {
    if (request.url?.startsWith('/attachments/')) return serveCdnFile(state, request, response);
    void router.handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  gatewayUrl = `ws://127.0.0.1:${port}/gateway`;
  const gateway = new FakeGateway(server, state, {
    token,
    botUserId: world.bot.id,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    resumeUrl: () => gatewayUrl,
    ...(options.privilegedIntents === undefined ? {} : { privilegedIntents: options.privilegedIntents }),
  });
  const act = new PersonActions(state, world.bot.id);
  const removedFrom = new Set<string>();
  router.botGuard = (params) => {
    const channelId = params['channelId'];
    if (channelId && state.channels.has(channelId) && removedFrom.has(state.guildOf(channelId))) throw missingAccess();
  };
  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    cdnUrl: `http://127.0.0.1:${port}`,
    gatewayUrl,
    token,
    guildId: state.guildId,
    applicationId: state.applicationId,
    state,
    router,
    gateway,
    rateLimits,
    ...world,
    addGuild(name, channelNames, shard) {
      const guild = state.addGuild(name, shard);
      const channels: Record<string, FakeChannel> = {};
      for (const channelName of channelNames) channels[channelName] = state.addTextChannel(channelName, guild.id);
      return { guild, channels };
    },
    post: (channelId, user, content, options) => act.post(channelId, user, content, options),
    createForumPost: (forumId, user, title, content) => act.createForumPost(forumId, user, title, content),
    editAsAuthor: (message, content) => state.editMessage(message, { content }),
    deleteAsPerson: (message) => state.deleteMessage(message),
    clickButton: (message, customId, user) => act.clickButton(message, customId, user),
    runSlashCommand: (input) => act.runSlashCommand(input),
    setBotPermission(permission, granted) {
      const everyone = state.roles.get(state.guildId);
      if (!granted && everyone && (everyone.permissions & permission) !== 0n) state.updateRole(everyone, everyone.permissions & ~permission);
      state.updateRole(world.roles.bot, granted ? world.roles.bot.permissions | permission : world.roles.bot.permissions & ~permission);
    },
    deleteWebhook(webhookId) {
      const hook = state.webhooks.get(webhookId);
      if (!hook) throw new Error(`fake discord: no webhook ${webhookId}`);
      hook.deleted = true;
      state.dispatch(GatewayDispatchEvents.WebhooksUpdate, { guild_id: state.guildId, channel_id: hook.channelId });
      state.changed();
    },
    archiveThread: (threadId, archiveOptions) =>
      setThreadFlags(state, state.requireChannel(threadId), { archived: true, locked: archiveOptions?.locked ?? false }, archiveOptions),
    deleteChannel: (channelId, deleteOptions) => deleteChannel(state, channelId, deleteOptions),
    removeBotFromGuild(guildId, removeOptions) {
      if (removeOptions?.outage) return state.dispatch(GatewayDispatchEvents.GuildDelete, { id: guildId, unavailable: true });
      removedFrom.add(guildId);
      state.dispatch(GatewayDispatchEvents.GuildDelete, { id: guildId });
      state.changed();
    },
    injectRateLimit: (injection) => rateLimits.inject(injection),
    disconnectGateway: (code) => gateway.disconnectAll(code),
    messagesIn: (channelId) => state.messages.filter((message) => message.channelId === channelId && !message.deleted && (message.flags & 64) === 0),
    waitFor: (probe, waitOptions) => waitForChange(state, router, probe, waitOptions),
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function populate(state: FakeDiscordState, channelNames: string[], others: { forum: string[]; voice: string[] }) {
  const bitsOfAdmins = PermissionFlagsBits.ManageGuild;
  const roles = {
    admins: state.addRole('Admins', bitsOfAdmins),
    facilitators: state.addRole('Facilitators', 0n),
    bot: state.addRole('Brainstorm', DEFAULT_BOT_PERMISSIONS),
  };
  const owner = state.addUser('olivia');
  state.ownerId = owner.id;
  const people = {
    owner,
    ada: state.addUser('ada', { roleIds: [roles.admins.id] }),
    bob: state.addUser('bob'),
    fay: state.addUser('fay', { roleIds: [roles.facilitators.id] }),
  };
  const bot = state.addUser('Brainstorm', { bot: true, roleIds: [roles.bot.id] });
  const channels: Record<string, FakeChannel> = {};
  for (const name of channelNames) channels[name] = state.addTextChannel(name);
  for (const name of others.forum) channels[name] = state.addTextChannel(name, state.guildId, 'forum');
  for (const name of others.voice) channels[name] = state.addTextChannel(name, state.guildId, 'voice');
  return { roles, people, bot, channels };
}

function waitForChange<T>(
  state: FakeDiscordState,
  router: FakeRouter,
  probe: () => T | null | undefined | false,
  options: { timeoutMs?: number; description?: string } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = (): boolean => {
      const value = probe();
      if (value === null || value === undefined || value === false) return false;
      cleanup();
      resolve(value);
      return true;
    };
    const timer = setTimeout(() => {
      cleanup();
      const internal = router.internalErrors.length > 0 ? ` (fake internal errors: ${router.internalErrors.map(String).join('; ')})` : '';
      reject(new Error(`fake discord: timed out waiting for ${options.description ?? 'a condition'}${internal}`));
    }, options.timeoutMs ?? 10_000);
    const cleanup = (): void => {
      clearTimeout(timer);
      state.events.off('change', onChange);
    };
    const onChange = (): void => void check();
    state.events.on('change', onChange);
    check();
  });
}

/** Discord's CDN: a shared file until its signed `ex` time (hex seconds), then 404 as Discord answers. */
function serveCdnFile(state: FakeDiscordState, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://cdn.invalid');
  const file = state.cdnFiles.get(decodeURIComponent(url.pathname));
  const expiresAtMs = Number.parseInt(url.searchParams.get('ex') ?? '0', 16) * 1000;
  if (!file || expiresAtMs <= Date.now()) {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('This content is no longer available.');
    return;
  }
  response.writeHead(200, { 'content-type': file.contentType, 'content-length': Buffer.byteLength(file.content) });
  response.end(file.content);
}
