/** Test helpers that act as a person in the guild: post, click a button, run a slash command. */
import { randomBytes } from 'node:crypto';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ComponentType,
  GatewayDispatchEvents,
  InteractionType,
  MessageType,
  type APIInteraction,
} from 'discord.js';
import type { FakeInteraction, FakeUser, RecordedMessage } from './fake-model.ts';
import type { FakeDiscordState } from './fake-state.ts';
import { channelPayload, memberPayload, messagePayload } from './payloads.ts';
import { cdnAttachment, type UploadedFile } from './uploads.ts';

/** A slash command invocation: `/command subcommand option:value ...`. */
export interface SlashCommandInput {
  channelId: string;
  user: FakeUser;
  command: string;
  subcommand?: string;
  options?: Record<string, string>;
}

/** What a person's post carries besides its text. */
export interface PostOptions {
  /** Files attached; each address is signed for 24 hours from now, as Discord's CDN signs them, unless `expiresAt` says. */
  files?: UploadedFile[];
  /** The message it replies to (Discord's reply: a `message_reference` to it). */
  replyTo?: RecordedMessage;
}

/** Acts as people; every action goes through the gateway exactly as Discord would send it. */
export class PersonActions {
  constructor(
    private readonly state: FakeDiscordState,
    private readonly botUserId: string,
  ) {}

  /** A person posts a message in a channel or thread: with files attached (name and type), or as a reply to a message. */
  post(channelId: string, user: FakeUser, content: string, options: PostOptions = {}): RecordedMessage {
    const attachments = (options.files ?? []).map((file) => cdnAttachment(this.state, channelId, file));
    const reply = options.replyTo ? { type: MessageType.Reply, referenceId: options.replyTo.id } : {};
    return this.state.createMessage({ channelId, origin: 'person', authorId: user.id, content, attachments, ...reply });
  }

  /** A person opens a post in a forum (Discord's default auto-archive for a forum post: one day). */
  createForumPost(forumId: string, user: FakeUser, title: string, content: string): RecordedMessage {
    const forum = this.state.requireChannel(forumId);
    if (forum.kind !== 'forum') throw new Error(`fake discord: ${forumId} is not a forum`);
    const thread = this.state.createThread(forum, null, title, 1440, user.id);
    return this.state.createMessage({ id: thread.id, channelId: thread.id, origin: 'person', authorId: user.id, content });
  }

  /** A person clicks a button on a message (Discord shows only the buttons the message has now). */
  clickButton(message: RecordedMessage, customId: string, user: FakeUser): FakeInteraction {
    const current = this.state.findMessage(message.id) ?? message;
    const buttons = (current.components ?? []).flatMap((row) => (row as { components?: { custom_id?: string }[] }).components ?? []);
    if (!buttons.some((button) => button.custom_id === customId)) throw new Error(`fake discord: message ${message.id} has no button ${customId}`);
    return this.dispatchInteraction(user, message.channelId, (base) => ({
      ...base,
      type: InteractionType.MessageComponent,
      message: messagePayload(message, this.state, false),
      data: { custom_id: customId, component_type: ComponentType.Button },
    }));
  }

  /** A person runs a slash command registered by the bot (fails loudly if it was never registered). */
  runSlashCommand(input: SlashCommandInput): FakeInteraction {
    const guildId = this.state.guildOf(input.channelId);
    const registered = this.state.commands.find((command) => command.body['name'] === input.command && command.guildId === guildId);
    if (!registered) throw new Error(`fake discord: /${input.command} was never registered by the bot`);
    const valueOptions = Object.entries(input.options ?? {}).map(([name, value]) => ({ type: ApplicationCommandOptionType.String, name, value }));
    const options = input.subcommand ? [{ type: ApplicationCommandOptionType.Subcommand, name: input.subcommand, options: valueOptions }] : valueOptions;
    return this.dispatchInteraction(input.user, input.channelId, (base) => ({
      ...base,
      type: InteractionType.ApplicationCommand,
      data: { id: registered.id, name: input.command, type: ApplicationCommandType.ChatInput, guild_id: guildId, options },
    }));
  }

  private dispatchInteraction(user: FakeUser, channelId: string, build: (base: Record<string, unknown>) => Record<string, unknown>): FakeInteraction {
    const channel = this.state.requireChannel(channelId);
    const member = this.state.members.get(user.id);
    if (!member) throw new Error(`fake discord: ${user.username} is not a member`);
    const guildId = channel.guildId;
    const id = this.state.ids.next();
    const token = `aW50ZXJhY3Rpb24${randomBytes(32).toString('base64url')}`;
    const base: Record<string, unknown> = {
      id,
      token,
      version: 1,
      application_id: this.state.applicationId,
      guild_id: guildId,
      guild: { id: guildId, locale: 'en-US', features: [] },
      channel_id: channel.id,
      channel: channelPayload(channel),
      member: { ...memberPayload(member, user), permissions: this.state.permissionsOf(user.id, guildId).toString() },
      locale: 'en-US',
      guild_locale: 'en-US',
      app_permissions: this.state.permissionsOf(this.botUserId, guildId).toString(),
      entitlements: [],
      authorizing_integration_owners: { '0': guildId },
      context: 0,
      attachment_size_limit: 8_388_608,
    };
    const payload = build(base) as unknown as APIInteraction;
    const interaction: FakeInteraction = {
      id,
      token,
      payload,
      dispatchedAtMs: Date.now(),
      acknowledged: false,
      ephemeral: false,
      originalMessageId: null,
      responses: [],
    };
    this.state.interactions.set(id, interaction);
    this.state.dispatch(GatewayDispatchEvents.InteractionCreate, payload);
    this.state.changed();
    return interaction;
  }
}
