/** What the REST route modules share. */
import { PermissionFlagsBits } from 'discord.js';
import { missingPermissions } from './discord-errors.ts';
import type { FakeChannel } from './fake-model.ts';
import type { FakeDiscordState } from './fake-state.ts';

/** Dependencies of the route modules. */
export interface RouteDeps {
  state: FakeDiscordState;
  botUserId: string;
  gatewayUrl(): string;
  /** How long after dispatch an interaction may still be answered (Discord: 3 s). */
  interactionDeadlineMs: number;
}

/** Throws 50013 Missing Permissions unless the bot holds `permission`. */
export function requireBotPermission(deps: RouteDeps, permission: bigint): void {
  if ((deps.state.permissionsOf(deps.botUserId) & permission) === 0n) throw missingPermissions();
}

/** The permission needed to post in a channel: Send Messages, or Send Messages in Threads inside a thread. */
export function sendPermissionFor(channel: FakeChannel): bigint {
  return channel.kind === 'thread' ? PermissionFlagsBits.SendMessagesInThreads : PermissionFlagsBits.SendMessages;
}
