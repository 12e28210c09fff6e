/**
 * The Discord bot: a discord.js client with the intents it needs, pointed at `DISCORD_API_URL`, serving the
 * brainstorm channels of one guild. Events go to the SessionGateway; the transport carries messages back.
 */
import { once } from 'node:events';
import { parseSharding } from '../config/sharding.ts';
import { Client, Events, GatewayIntentBits, Options, Partials, type Interaction, type Message } from 'discord.js';
import type { AppConfig } from '../config/app-config.ts';
import type { Logger } from '../logging/logger.ts';
import type { Clock } from '../core/clock.ts';
import { BrainstormError } from '../core/errors.ts';
import { isDatabaseUnreachable } from '../core/database-unreachable.ts';
import type { CatchUpScope, SessionGateway } from '../core/ports.ts';
import { AttachmentTexts } from './attachment-text.ts';
import { catchUp } from './catch-up.ts';
import { HeldMessages, speaksAbout } from './held-messages.ts';
import { channelProblems, explainLoginFailure, type SetupProblem } from './setup-check.ts';
import { DiscordEvents } from './discord-events.ts';
import { DiscordTransport } from './discord-transport.ts';
import { HandledTracker } from './handled-tracker.ts';
import { watchRoomClosures } from './room-closure-events.ts';
import { slashCommandDefinitions } from './slash-commands.ts';

/** What the connection needs. */
export interface DiscordConnectionOptions {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
}

/** A discord.js client and the transport over it: built before the app, which needs the transport. */
export interface DiscordConnection {
  readonly client: Client;
  readonly transport: DiscordTransport;
}

/** What the bot needs: the app's gateway, and the connection the app was built with (a new one when not given). */
export interface DiscordBotOptions extends DiscordConnectionOptions {
  gateway: SessionGateway;
  connection?: DiscordConnection;
  /** The live processes of the installation and this one's id: without shards, one of them speaks for all. */
  processes?: { ids(): readonly string[]; selfId: string };
}

/** A running (or startable) bot. */
export interface DiscordBot {
  readonly client: Client;
  /** The Discord `Transport` to hand to the composition root (`name: 'discord'`). */
  readonly transport: DiscordTransport;
  /** Logs in, waits until the guild is ready, registers the slash commands in each brainstorm guild. */
  start(): Promise<void>;
  /** Waits for handlers in progress, then disconnects. */
  stop(): Promise<void>;
  /** Resolves when the message or interaction with this Discord id has been handled (tests, benches). */
  handled(discordId: string): Promise<void>;
  /**
   * Reads back what was said while the bot was away (run by `start()` and after every new gateway session); with
   * `unfinishedOnly`, only the rooms where a process that stopped left a message it claimed and never handled.
   */
  catchUp(scope?: CatchUpScope): Promise<number>;
  /** What keeps the brainstorm channels from working, as found at the last start (for the console's notices). */
  setupProblems(): readonly SetupProblem[];
}

/** The gateway intents the bot uses; Message Content is privileged and must be enabled in the developer portal. */
export const DISCORD_INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.GuildWebhooks];

/**
 * discord.js keeps up to 200 messages of every channel and thread it sees, as long as the channel stays cached (a
 * thread, until four hours after it is archived): a busy bot's rooms full of long answers, read back by nobody. The bot
 * needs none of them: an edit of a message no longer cached arrives as a partial and is fetched (`onMessageUpdate`), a
 * deletion needs only its id. Messages untouched for 30 minutes are swept every 15 (seconds, as discord.js counts).
 */
export const MESSAGE_SWEEP = Object.freeze({ interval: 15 * 60, lifetime: 30 * 60 });

/** Builds the client (pointed at `DISCORD_API_URL`, identifying only this process's shards) and its transport. */
export function createDiscordConnection(options: DiscordConnectionOptions): DiscordConnection {
  const { config } = options;
  const logger = options.logger.child({ component: 'discord' });
  const sharding = parseSharding(config.environment.SHARD_COUNT, config.environment.SHARD_IDS);
  const client = new Client({
    intents: DISCORD_INTENTS,
    // Each process identifies only its shards: the gateway sends it the events of those shards' guilds alone.
    ...(sharding ? { shards: sharding.ids, shardCount: sharding.count } : {}),
    // Threads opened before a restart may not be cached; without Partials.Channel their messages are dropped.
    partials: [Partials.Channel, Partials.Message, Partials.GuildMember],
    sweepers: { ...Options.DefaultSweeperSettings, messages: MESSAGE_SWEEP },
    rest: { api: config.discord.apiUrl },
  });
  return { client, transport: new DiscordTransport({ client, clock: options.clock, logger, sharding }) };
}

/** Builds the bot's event handlers over a connection (after the app, whose gateway they call); `start()` connects. */
export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  const { config, gateway } = options;
  const logger = options.logger.child({ component: 'discord' });
  const { client, transport } = options.connection ?? createDiscordConnection(options);
  const guildId = config.discord.guildId;
  // Edits and deletions missed while the database was away are read back with a catch-up once it is back.
  const sharded = parseSharding(config.environment.SHARD_COUNT, config.environment.SHARD_IDS) !== null;
  const processes = options.processes;
  const held = new HeldMessages({
    clock: options.clock,
    logger,
    catchUp: () => runCatchUp(),
    tellsAbout: (messageId) => sharded || !processes || speaksAbout(messageId, processes.ids(), processes.selfId),
  });
  const events = new DiscordEvents({
    gateway,
    held,
    guildId,
    ownsGuild: (id) => transport.ownsGuild(id),
    brainstormChannelIds: new Set(config.discord.channelIds),
    adminRoleId: config.discord.adminRoleId,
    logger,
    inRoomOrder: (roomId, task) => transport.inRoomOrder(roomId, task),
    attachments: new AttachmentTexts({
      cdnUrl: config.discord.cdnUrl,
      fetch: globalThis.fetch,
      maxMessageChars: () => config.limits.maxHumanMessageChars,
      logger,
    }),
  });
  const tracker = new HandledTracker();
  let started = false;
  let problems: SetupProblem[] = [];
  // One catch-up at a time; a reconnect during one queues another after it.
  let catchingUp: Promise<number> = Promise.resolve(0);
  const runCatchUp = (scope: CatchUpScope = {}): Promise<number> => {
    const run = catchingUp.then(() =>
      catchUp({
        scope,
        client,
        gateway,
        brainstormChannelIds: config.discord.channelIds,
        ownsGuild: (id) => transport.ownsGuild(id),
        onMessage: (message) => events.onMessage(message),
        onMessageUpdate: (message) => events.onMessageUpdate(message),
        logger,
      }),
    );
    catchingUp = run.catch(() => 0);
    tracker.track(
      `catch-up-${Date.now()}`,
      run.then(() => undefined),
    );
    return run;
  };

  watchRoomClosures({ client, gateway, brainstormChannelIds: new Set(config.discord.channelIds), logger, track: (id, work) => tracker.track(id, work) });
  client.on(Events.MessageCreate, (message: Message) => {
    // Keeps the list of live processes read (every few seconds at most) while the database answers: during an outage
    // the last list decides which process tells a room its messages wait.
    processes?.ids();
    tracker.track(message.id, events.onMessage(message));
  });
  // A message's edits and deletion wait for its own handling and for the edits before them, so none finds it unstored.
  const afterMessage = (id: string) => tracker.after(id, `edit-${id}`);
  client.on(Events.MessageUpdate, (_old, updated) =>
    tracker.track(
      `edit-${updated.id}`,
      afterMessage(updated.id).then(() => events.onMessageUpdate(updated)),
    ),
  );
  client.on(Events.MessageDelete, (message) =>
    tracker.track(
      `delete-${message.id}`,
      afterMessage(message.id).then(() => events.onMessagesDelete([message])),
    ),
  );
  client.on(Events.MessageBulkDelete, (messages) =>
    tracker.track(
      `bulk-delete-${messages.firstKey() ?? ''}`,
      Promise.all([...messages.keys()].map(afterMessage)).then(() => events.onMessagesDelete([...messages.values()])),
    ),
  );
  client.on(Events.InteractionCreate, (interaction: Interaction) => tracker.track(interaction.id, events.onInteraction(interaction)));
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardDisconnect, (event, shardId) => logger.warn({ code: event.code, shardId }, 'discord gateway disconnected for good'));
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'discord gateway resumed'));
  // READY after start means a new gateway session (a failed resume, or Discord asked us to reconnect): nothing said
  // meanwhile will be replayed, so read it back. A RESUME replays missed events itself.
  client.on(Events.ShardReady, (shardId) => {
    if (!started) return;
    logger.info({ shardId }, 'new discord gateway session; reading back what was said meanwhile');
    void runCatchUp().catch((error: unknown) => {
      // Nothing of the gap would be read again before the next reconnect: it is read once the database is back.
      if (isDatabaseUnreachable(error)) return held.readBackLater();
      logger.warn({ err: error }, 'catch-up after a reconnect failed');
    });
  });

  return {
    client,
    transport,
    async start() {
      if (!config.discord.token) throw new BrainstormError('bad_input', 'DISCORD_BOT_TOKEN is not set, so the Discord bot cannot start.');
      if (config.discord.channelIds.length === 0)
        throw new BrainstormError('bad_input', 'DISCORD_CHANNEL_ID is not set: name at least one brainstorm channel.');
      const ready = once(client, Events.ClientReady);
      await client.login(config.discord.token).catch((error: unknown) => {
        throw explainLoginFailure(error);
      });
      await ready;
      problems = await checkChannels(client, config, logger, (guildId) => transport.ownsGuild(guildId));
      await registerCommands(client, config, logger, (guildId) => transport.ownsGuild(guildId));
      started = true;
      await runCatchUp();
      logger.info({ user: client.user?.tag, channels: config.discord.channelIds }, 'discord bot ready');
    },
    async stop() {
      await held.stop();
      await tracker.idle();
      await client.destroy();
    },
    handled: (discordId) => tracker.handled(discordId),
    catchUp: runCatchUp,
    setupProblems: () => problems,
  };
}

/** Checks every brainstorm channel and logs what keeps each from working, in words an admin can act on. */
async function checkChannels(client: Client, config: AppConfig, logger: Logger, ownsGuild: (guildId: string) => boolean): Promise<SetupProblem[]> {
  const scope = { guildId: config.discord.guildId, ownsGuild };
  const found = (await Promise.all(config.discord.channelIds.map((channelId) => channelProblems(client, channelId, scope)))).flat();
  for (const problem of found) {
    if (problem.severity === 'error') logger.error(problem.text);
    else logger.warn(problem.text);
  }
  return found;
}

/**
 * Bulk-registers `/brainstorm` in every guild of this process's shards that holds a brainstorm channel (guild
 * commands update at once). A guild on another shard is left to its own process: one overwrite per guild per start.
 */
async function registerCommands(client: Client, config: AppConfig, logger: Logger, ownsGuild: (guildId: string) => boolean): Promise<void> {
  const guildIds = new Set<string>(config.discord.guildId ? [config.discord.guildId] : []);
  if (guildIds.size === 0) {
    for (const channelId of config.discord.channelIds) {
      const channel = await client.channels.fetch(channelId).catch(() => null);
      if (channel && 'guildId' in channel && channel.guildId) guildIds.add(channel.guildId);
    }
  }
  const participants = config.models.roster.map((participant) => participant.name);
  for (const guildId of [...guildIds].filter(ownsGuild)) {
    await client.application?.commands.set(
      slashCommandDefinitions(
        participants,
        config.presets.map((preset) => preset.name),
      ),
      guildId,
    );
    logger.info({ guildId }, 'registered /brainstorm');
  }
}
