import { DiscordAPIError, GatewayDispatchEvents } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { CLOSURE_REASONS, closureOf, closureOfReadFailure, closuresOfRemoval } from '../../../src/bot/room-closure-events.ts';

const BRAINSTORM = new Set(['c-brainstorm']);
const thread = (extra: Record<string, unknown> = {}) => ({ id: 't-1', guild_id: 'g-1', parent_id: 'c-brainstorm', type: 11, ...extra });
const dispatch = (t: string, d: unknown) => ({ op: 0, s: 7, t, d });

describe('closureOf', () => {
  it('closes the room of a deleted thread under a brainstorm channel', () => {
    expect(closureOf(dispatch(GatewayDispatchEvents.ThreadDelete, thread()), BRAINSTORM)).toEqual({
      transport: 'discord',
      channelId: 't-1',
      scope: 'room',
      reason: CLOSURE_REASONS.threadDeleted,
    });
  });

  it('closes a locked thread, and leaves one that is only archived', () => {
    const locked = thread({ thread_metadata: { archived: true, locked: true } });
    const archived = thread({ thread_metadata: { archived: true, locked: false } });
    expect(closureOf(dispatch(GatewayDispatchEvents.ThreadUpdate, locked), BRAINSTORM)?.reason).toBe(CLOSURE_REASONS.threadLocked);
    expect(closureOf(dispatch(GatewayDispatchEvents.ThreadUpdate, archived), BRAINSTORM)).toBeNull();
  });

  it('closes every room of a deleted brainstorm channel, and nothing for any other channel', () => {
    expect(closureOf(dispatch(GatewayDispatchEvents.ChannelDelete, { id: 'c-brainstorm', type: 0 }), BRAINSTORM)).toMatchObject({
      channelId: 'c-brainstorm',
      scope: 'channel',
      reason: CLOSURE_REASONS.channelDeleted,
    });
    expect(closureOf(dispatch(GatewayDispatchEvents.ChannelDelete, { id: 'c-general', type: 0 }), BRAINSTORM)).toBeNull();
  });

  it('ignores threads of other channels, other dispatches and malformed packets', () => {
    expect(closureOf(dispatch(GatewayDispatchEvents.ThreadDelete, thread({ parent_id: 'c-general' })), BRAINSTORM)).toBeNull();
    expect(closureOf(dispatch(GatewayDispatchEvents.MessageCreate, thread()), BRAINSTORM)).toBeNull();
    expect(closureOf(dispatch(GatewayDispatchEvents.ThreadDelete, { parent_id: 'c-brainstorm' }), BRAINSTORM)).toBeNull();
    expect(closureOf({ op: 11 }, BRAINSTORM)).toBeNull();
    expect(closureOf(null, BRAINSTORM)).toBeNull();
  });
});

describe('closureOfReadFailure', () => {
  const apiError = (status: number, code: number) =>
    new DiscordAPIError({ code, message: 'x' }, code, status, 'GET', 'https://discord.test/api/v10/channels/t-1', { body: undefined, files: undefined });

  it('closes on Unknown Channel only: a thread, or a brainstorm channel with its rooms', () => {
    expect(closureOfReadFailure(apiError(404, 10003), 't-1', BRAINSTORM)).toMatchObject({ scope: 'room', reason: CLOSURE_REASONS.threadDeleted });
    expect(closureOfReadFailure(apiError(404, 10003), 'c-brainstorm', BRAINSTORM)).toMatchObject({ scope: 'channel' });
  });

  it('never closes on a failure that may heal or that says nothing about the room', () => {
    expect(closureOfReadFailure(apiError(403, 50001), 't-1', BRAINSTORM)).toBeNull();
    expect(closureOfReadFailure(apiError(500, 0), 't-1', BRAINSTORM)).toBeNull();
    expect(closureOfReadFailure(new Error('ECONNRESET'), 't-1', BRAINSTORM)).toBeNull();
  });
});

describe('closuresOfRemoval', () => {
  const channels = new Set(['c-brainstorm', 'c-ideas', 'c-elsewhere']);
  const guildOf = (channelId: string) => (channelId === 'c-elsewhere' ? 'g-2' : channelId.startsWith('c-') ? 'g-1' : null);

  it("closes every brainstorm channel of the server the bot was removed from, and no other server's", () => {
    const closures = closuresOfRemoval(dispatch(GatewayDispatchEvents.GuildDelete, { id: 'g-1' }), channels, guildOf);
    expect(closures.map((closure) => [closure.channelId, closure.scope, closure.reason])).toEqual([
      ['c-brainstorm', 'channel', CLOSURE_REASONS.botRemoved],
      ['c-ideas', 'channel', CLOSURE_REASONS.botRemoved],
    ]);
  });

  it('closes nothing for an outage of the server (unavailable) or any other dispatch', () => {
    expect(closuresOfRemoval(dispatch(GatewayDispatchEvents.GuildDelete, { id: 'g-1', unavailable: true }), channels, guildOf)).toEqual([]);
    expect(closuresOfRemoval(dispatch(GatewayDispatchEvents.ChannelDelete, { id: 'g-1' }), channels, guildOf)).toEqual([]);
  });
});
