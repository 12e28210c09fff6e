import { ChannelType, type Client, type Message } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { catchUp } from '../../../src/bot/catch-up.ts';
import type { SessionGateway } from '../../../src/core/ports.ts';
import { createLogger } from '../../../src/logging/logger.ts';

/** A forum whose active threads are `postIds` (plus one post of another forum); each post's first message has its id. */
function clientWithForum(postIds: string[]) {
  const post = (id: string, parentId = 'forum-1') => ({ id, parentId, fetchStarterMessage: async () => ({ id }) as unknown as Message });
  const threads = new Map([...postIds.map((id) => [id, post(id)] as const), ['999', post('999', 'another-forum')] as const]);
  const forum = { id: 'forum-1', type: ChannelType.GuildForum, guildId: 'guild-1', threads: { fetchActive: async () => ({ threads }) } };
  return { channels: { fetch: async () => forum } } as unknown as Client;
}

describe('catching up on a brainstorm forum', () => {
  it('hands on the first message of each post opened after the point, oldest first', async () => {
    const handed: string[] = [];
    const gateway = { catchUpPoints: async () => [{ channelId: 'forum-1', afterExternalId: '200' }] } as unknown as SessionGateway;
    const total = await catchUp({
      client: clientWithForum(['300', '150', '250', '200']),
      gateway,
      brainstormChannelIds: ['forum-1'],
      ownsGuild: () => true,
      onMessage: async (message) => void handed.push(message.id),
      onMessageUpdate: async () => undefined,
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    expect(handed).toEqual(['250', '300']);
    expect(total).toBe(2);
  });
});
