/**
 * Threads as Discord keeps them: archived after inactivity (or by a person), locked by a moderator, deleted. Sending
 * a message unarchives a thread unless it is locked; nothing but deleting works in an archived thread; only members
 * with Manage Threads may post in a locked one. A deleted channel takes its threads with it.
 */
import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits } from 'discord.js';
import { DiscordHttpError } from './discord-errors.ts';
import type { FakeChannel } from './fake-model.ts';
import type { FakeDiscordState } from './fake-state.ts';
import { channelPayload } from './payloads.ts';

/** 50083: the action is not allowed in an archived thread (Discord's message: "Thread is archived"). */
export const threadArchived = (): DiscordHttpError => new DiscordHttpError(400, 50083, 'Thread is archived');
/** 160005: the thread is locked. */
export const threadLocked = (): DiscordHttpError => new DiscordHttpError(400, 160005, 'Thread is locked');

/** Checks that `authorId` may post in `channel`; an archived thread that is not locked wakes up, as Discord does. */
export function admitSend(state: FakeDiscordState, channel: FakeChannel, authorId: string): void {
  if (channel.kind === 'forum' || channel.kind === 'voice') throw new DiscordHttpError(400, 50008, 'Cannot send messages in a non-text channel');
  if (channel.kind !== 'thread') return;
  const moderator = (state.permissionsOf(authorId, channel.guildId) & PermissionFlagsBits.ManageThreads) !== 0n;
  if (channel.locked && !moderator) throw channel.archived ? threadArchived() : threadLocked();
  if (channel.archived) setThreadFlags(state, channel, { archived: false });
}

/** Edits need an active thread. */
export function admitEdit(channel: FakeChannel | undefined): void {
  if (channel?.kind === 'thread' && channel.archived) throw threadArchived();
}

/** Archives or locks a thread (or undoes it) and dispatches THREAD_UPDATE, unless it happens while the bot is away. */
export function setThreadFlags(
  state: FakeDiscordState,
  thread: FakeChannel,
  flags: { archived?: boolean; locked?: boolean },
  options: { dispatch?: boolean } = {},
): void {
  if (thread.kind !== 'thread') throw new Error(`fake discord: ${thread.id} is not a thread`);
  if (flags.archived !== undefined) thread.archived = flags.archived;
  if (flags.locked !== undefined) thread.locked = flags.locked;
  if (options.dispatch !== false) state.dispatch(GatewayDispatchEvents.ThreadUpdate, channelPayload(thread));
  state.changed();
}

/**
 * Deletes a channel or thread as a server admin would: later requests answer 10003 Unknown Channel. `dispatch: false`
 * deletes it while the bot is away (a new gateway session is told nothing of it).
 */
export function deleteChannel(state: FakeDiscordState, channelId: string, options: { dispatch?: boolean } = {}): void {
  const channel = state.requireChannel(channelId);
  const threads = [...state.channels.values()].filter((candidate) => candidate.parentId === channel.id);
  for (const gone of [channel, ...threads]) state.channels.delete(gone.id);
  if (options.dispatch !== false) {
    const event = channel.kind === 'thread' ? GatewayDispatchEvents.ThreadDelete : GatewayDispatchEvents.ChannelDelete;
    const payload =
      channel.kind === 'thread'
        ? { id: channel.id, guild_id: channel.guildId, parent_id: channel.parentId, type: ChannelType.PublicThread }
        : channelPayload(channel);
    state.dispatch(event, payload);
  }
  state.changed();
}
