/** Discord events in: people's messages, slash commands and the approve button, handed to the SessionGateway. */
import {
  ComponentType,
  MessageFlags,
  MessageType,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type Message,
  type PartialMessage,
} from 'discord.js';
import type { Logger } from '../logging/logger.ts';
import type { Author } from '../core/domain.ts';
import { isDatabaseUnreachable } from '../core/database-unreachable.ts';
import { describeForPerson } from '../core/errors.ts';
import type { GatewayReply, InboundMessage, SessionGateway } from '../core/ports.ts';
import type { AttachmentTexts } from './attachment-text.ts';
import type { HeldMessages, IntakeOutcome } from './held-messages.ts';
import { acknowledged } from './interaction-acknowledgement.ts';
import {
  authorFrom,
  forumTopic,
  isForumPostStart,
  isFromPerson,
  interactionMember,
  memberFacts,
  messagePlace,
  messageText,
  placeOf,
  type BrainstormPlace,
} from './inbound.ts';
import { APPROVE_BUTTON_ID } from './message-format.ts';
import { commandButtonRows, commandOfButton, rowsWithoutButton } from './command-buttons.ts';
import { buttonsUnderLast, NO_MENTIONS, replyToMessage } from './message-replies.ts';
import { splitMessage } from './message-splitter.ts';
import { keyedStep, withShownStepTicked } from '../core/next-steps.ts';
import { BRAINSTORM_COMMAND, subcommandArgs } from './slash-commands.ts';
import { clipText } from '../core/text-clip.ts';

/** What the handlers need. */
export interface DiscordEventsOptions {
  gateway: SessionGateway;
  guildId: string | undefined;
  /** Whether a guild is on this process's shards; another process answers the rest (a catch-up reads every channel). */
  ownsGuild: (guildId: string) => boolean;
  brainstormChannelIds: ReadonlySet<string>;
  adminRoleId: string | undefined;
  logger: Logger;
  /** Runs a reply after the room's messages already on their way (the transport's per-room queue). */
  inRoomOrder<T>(roomId: string, task: () => Promise<T>): Promise<T>;
  /** Holds people's messages while the database is unreachable. */
  held: Pick<HeldMessages, 'receive' | 'readBackLater'>;
  /** Reads the text files people share (absent: files are only named). */
  attachments?: AttachmentTexts;
}

type CommandInteraction = ChatInputCommandInteraction | ButtonInteraction;

/** Turns Discord events into gateway calls and shows the gateway's replies where the person acted. */
export class DiscordEvents {
  private warnedAboutEmptyContent = false;

  constructor(private readonly options: DiscordEventsOptions) {}

  /** A message anywhere the bot can see; only people's messages in brainstorm channels and their threads count. */
  async onMessage(message: Message): Promise<void> {
    const place = this.counts(message) ? messagePlace(message, this.options.brainstormChannelIds) : null;
    if (!place || !message.inGuild()) return;
    await this.options.held.receive(message, {
      roomId: place.roomId ?? place.channelId,
      take: (current) => this.take(current, place),
      tell: (content) => this.inPlaceOrder(place.roomId, () => replyToMessage(message, { content, private: false })),
    });
  }

  /** Hands a person's message to the gateway and shows its reply; `unreachable` (nothing taken in) while the database is. */
  private async take(message: Message, place: BrainstormPlace): Promise<IntakeOutcome> {
    if (!message.inGuild()) return 'taken';
    const text = await this.sessionText(message);
    // Only a missing Message Content intent empties a message with no file or sticker either.
    if (text === '') return (this.warnEmptyContent(), 'taken');
    try {
      const reply = await this.options.gateway.handleMessage({ ...(await this.inbound(message, place, text)), ...(await this.repliedPersona(message)) });
      if (reply) await this.inPlaceOrder(place.roomId, () => replyToMessage(message, reply));
    } catch (error) {
      if (isDatabaseUnreachable(error)) return 'unreachable';
      this.options.logger.error({ err: error, messageId: message.id }, 'handling a Discord message failed');
      await replyToMessage(message, { content: describeForPerson(error), private: true }).catch(() => undefined);
    }
    return 'taken';
  }

  /** A person edited a message: the stored one follows. Unfurled link previews arrive as edits too (same text: nothing). */
  async onMessageUpdate(updated: Message | PartialMessage): Promise<void> {
    const message = updated.partial ? await updated.fetch().catch(() => null) : updated;
    if (!message || !this.options.gateway.messageEdited) return;
    const place = this.counts(message) ? placeOf(message.channel, this.options.brainstormChannelIds) : null;
    if (!place || !message.inGuild()) return;
    try {
      const reply = await this.options.gateway.messageEdited(await this.inbound(message, place, await this.sessionText(message)));
      if (reply) await replyToMessage(message, reply);
    } catch (error) {
      // Applied from the room's latest messages once the database is back (the bot's catch-up).
      if (isDatabaseUnreachable(error)) return this.options.held.readBackLater();
      this.options.logger.error({ err: error, messageId: message.id }, 'handling an edited Discord message failed');
    }
  }

  /** Whether a message is a person's, in a guild this process serves (the configured one, on its shards). */
  private counts(message: Message): message is Message<true> {
    if (!message.inGuild() || !isFromPerson(message)) return false;
    if (this.options.guildId && message.guildId !== this.options.guildId) return false;
    return this.options.ownsGuild(message.guildId);
  }

  /** A person's message as the gateway takes it, its author read from the guild member (fetched when not cached). */
  private async inbound(message: Message<true>, place: BrainstormPlace, content: string): Promise<InboundMessage> {
    const member = message.member ?? (await message.guild.members.fetch(message.author.id).catch(() => null));
    const author = authorFrom(message.author, memberFacts(member), this.options.adminRoleId);
    return { transport: 'discord', roomId: place.roomId, channelId: place.channelId, externalId: message.id, author, content, url: message.url };
  }

  /** Messages deleted in a brainstorm place (one by one or in bulk): a person's stored message goes with each. */
  async onMessagesDelete(deleted: readonly (Message | PartialMessage)[]): Promise<void> {
    for (const message of deleted) {
      if (!message.guildId || !this.options.ownsGuild(message.guildId) || !placeOf(message.channel, this.options.brainstormChannelIds)) continue;
      await this.options.gateway.messageDeleted?.({ transport: 'discord', externalId: message.id }).catch((error: unknown) => {
        if (isDatabaseUnreachable(error)) return this.options.held.readBackLater();
        this.options.logger.error({ err: error, messageId: message.id }, 'handling a deleted Discord message failed');
      });
    }
  }

  /** A reply to a participant's message (a webhook message posted under its name) answers that participant. */
  private async repliedPersona(message: Message): Promise<{ addressedTo?: string[] }> {
    if (!message.reference?.messageId || message.type !== MessageType.Reply) return {};
    const replied = await message.fetchReference().catch(() => null);
    return replied?.webhookId ? { addressedTo: [replied.author.username] } : {};
  }

  /** Slash commands and buttons: deferred at once, then answered by editing the deferred reply. */
  async onInteraction(interaction: Interaction): Promise<void> {
    if (interaction.isChatInputCommand() && interaction.commandName === BRAINSTORM_COMMAND) {
      const subcommand = interaction.options.getSubcommand();
      return this.command(
        interaction,
        subcommand,
        subcommandArgs(subcommand, (name) => interaction.options.getString(name)),
      );
    }
    if (interaction.isButton() && interaction.customId === APPROVE_BUTTON_ID) return this.command(interaction, 'approve', '');
    const pressed = interaction.isButton() ? commandOfButton(interaction.customId) : null;
    if (interaction.isButton() && pressed) return this.commandButton(interaction, pressed);
  }

  /**
   * A command button ("Done 2" under `!steps`): its answer is posted for the room (a refusal only to the person who
   * pressed it), then the message it is on is replaced by the answer of `then` (the list, with the box ticked).
   */
  private async commandButton(interaction: ButtonInteraction, pressed: { command: string; args: string; then: string | null }): Promise<void> {
    const place = placeOf(interaction.channel, this.options.brainstormChannelIds);
    if (!place) return;
    const invocation = { transport: 'discord' as const, roomId: place.roomId, channelId: place.channelId, args: pressed.args };
    try {
      await interaction.deferUpdate();
      const author = authorFrom(interaction.user, interactionMember(interaction), this.options.adminRoleId);
      const reply = await this.options.gateway.runCommand({ ...invocation, author, name: pressed.command });
      await this.inPlaceOrder(place.roomId, async () => {
        for (const chunk of splitMessage(reply.content))
          await interaction.followUp({ content: chunk, allowedMentions: NO_MENTIONS, ...(reply.private ? { flags: MessageFlags.Ephemeral } : {}) });
      });
      if (reply.private) return;
      if (!pressed.then) return await this.withoutPressedButton(interaction, pressed.args);
      const shown = await this.options.gateway.runCommand({ ...invocation, author, name: pressed.then, args: '' });
      // A list that no longer fits one message is left as it was: the follow-up above said what changed.
      const [only, ...more] = splitMessage(shown.content);
      if (!shown.private && only && more.length === 0) await interaction.editReply({ content: only, components: commandButtonRows(shown.buttons) });
    } catch (error) {
      this.options.logger.error({ err: error, command: pressed.command }, 'handling a Discord button failed');
      await interaction.followUp({ content: describeForPerson(error), flags: MessageFlags.Ephemeral }).catch(() => undefined);
    }
  }

  /**
   * The message (a closing, a reminder) shows the step ticked and loses the button that did its work; the rest of its
   * text stays. Cosmetic, so a failure is only logged.
   */
  private async withoutPressedButton(interaction: ButtonInteraction, args: string): Promise<void> {
    const rows = interaction.message.components.flatMap((component) => (component.type === ComponentType.ActionRow ? [component.toJSON()] : []));
    const keyed = keyedStep(args);
    const ticked = keyed ? withShownStepTicked(interaction.message.content, keyed.number) : null;
    const edit = { components: rowsWithoutButton(rows, interaction.customId), ...(ticked !== null ? { content: ticked } : {}) };
    await interaction.editReply(edit).catch((error: unknown) => {
      this.options.logger.warn({ err: error, customId: interaction.customId }, 'could not take a pressed button off its message');
    });
  }

  private async command(interaction: CommandInteraction, requested: string, args: string): Promise<void> {
    const place = placeOf(interaction.channel, this.options.brainstormChannelIds) ?? this.elsewhere(interaction, requested);
    if (!place) {
      const where = [...this.options.brainstormChannelIds].map((id) => `<#${id}>`).join(', ');
      await interaction.reply({ content: `Use this in ${where} or a session thread.`, flags: MessageFlags.Ephemeral }).catch(() => undefined);
      return;
    }
    // Started inside a thread or another channel: the session reads the talk there (`!brainstorm`).
    const name = requested === 'start' && place.roomId !== null ? 'brainstorm' : requested;
    try {
      if (!(await acknowledged(interaction, this.options.logger))) return;
      const author = authorFrom(interaction.user, interactionMember(interaction), this.options.adminRoleId);
      if (name === 'start' && args !== '') return await this.startFromCommand(interaction, place, author, args);
      const reply = await this.options.gateway.runCommand({ transport: 'discord', roomId: place.roomId, channelId: place.channelId, author, name, args });
      await this.inPlaceOrder(place.roomId, () => this.answer(interaction, reply));
    } catch (error) {
      this.options.logger.error({ err: error, command: name }, 'handling a Discord command failed');
      await this.answer(interaction, { content: describeForPerson(error), private: true }).catch(() => undefined);
    }
  }

  /**
   * `/brainstorm start` in a channel of the guild that is no brainstorm channel: the talk there is read, and the
   * session's thread opens in the (first) brainstorm channel. Other commands have no place there.
   */
  private elsewhere(interaction: CommandInteraction, name: string): BrainstormPlace | null {
    const home = [...this.options.brainstormChannelIds][0];
    if (name !== 'start' || !home || !interaction.inGuild() || !interaction.channelId) return null;
    if (this.options.guildId && interaction.guildId !== this.options.guildId) return null;
    return { roomId: interaction.channelId, channelId: home };
  }

  /** `/brainstorm start topic:` — the reply itself is the topic message the session's thread opens on. */
  private async startFromCommand(interaction: CommandInteraction, place: BrainstormPlace, author: Author, topic: string): Promise<void> {
    // Screened before the topic is published: a refused topic is answered only to its author.
    const refusal = await this.options.gateway.screen({ author, text: topic, roomId: null });
    if (refusal) return this.answer(interaction, refusal);
    const starter = await interaction.editReply({ content: `**${author.name}** started a brainstorm: ${clipText(topic, 1800)}`, allowedMentions: NO_MENTIONS });
    const reply = await this.options.gateway.handleMessage({
      transport: 'discord',
      roomId: null,
      channelId: place.channelId,
      externalId: starter.id,
      author,
      content: topic,
      url: starter.url,
    });
    if (reply)
      await interaction.followUp({
        content: clipText(reply.content, 2000),
        allowedMentions: NO_MENTIONS,
        ...(reply.private ? { flags: MessageFlags.Ephemeral } : {}),
      });
  }

  /** Shows a command's reply: in the deferred message, or only to the person when it is private. */
  private async answer(interaction: CommandInteraction, reply: GatewayReply): Promise<void> {
    const chunks = splitMessage(reply.content);
    const [first = 'Done.', ...rest] = chunks;
    if (reply.private) {
      await interaction.deleteReply().catch(() => undefined);
      for (const chunk of [first, ...rest]) await interaction.followUp({ content: chunk, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
      return;
    }
    const underLast = buttonsUnderLast(reply, rest.length + 1);
    await interaction.editReply({ content: first, allowedMentions: NO_MENTIONS, ...underLast(0) });
    for (const [index, chunk] of rest.entries()) await interaction.followUp({ content: chunk, allowedMentions: NO_MENTIONS, ...underLast(index + 1) });
  }

  /**
   * What a message says in the session: its words, its files (a text file's excerpt), a forum post's title first.
   * Its words are taken before anything is awaited: discord.js patches the cached message in place when an edit
   * arrives, and the edit's own handler must be the one to apply it.
   */
  private async sessionText(message: Message): Promise<string> {
    const posted = { content: message.content, attachments: message.attachments, stickers: message.stickers };
    const text = messageText(posted, (await this.options.attachments?.excerpts(posted)) ?? new Map());
    return isForumPostStart(message) && message.channel.isThread() ? forumTopic(message.channel.name, text) : text;
  }

  /** In a session thread, a reply waits for the messages written before it; elsewhere it goes at once. */
  private inPlaceOrder(roomId: string | null, task: () => Promise<void>): Promise<void> {
    return roomId === null ? task() : this.options.inRoomOrder(roomId, task);
  }

  private warnEmptyContent(): void {
    if (this.warnedAboutEmptyContent) return;
    this.warnedAboutEmptyContent = true;
    this.options.logger.warn('a message arrived without content: enable the Message Content intent for the bot in the Discord developer portal');
  }
}
