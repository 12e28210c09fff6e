import type { Message, TextBasedChannel } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { readBackRevisions } from '../../../src/bot/catch-up-revisions.ts';
import type { MessageRevision } from '../../../src/core/ports.ts';

interface Posted {
  id: string;
  edited?: boolean;
  bot?: boolean;
}

/** A channel whose one page (Discord's `before` read) holds `posted`; records the query it was asked. */
function channelWith(id: string, posted: Posted[]) {
  const queries: unknown[] = [];
  const messages = posted.map(
    (entry) => ({ id: entry.id, editedTimestamp: entry.edited ? 1 : null, author: { bot: entry.bot === true } }) as unknown as Message,
  );
  const channel = {
    id,
    messages: {
      fetch: async (query: { before: string; limit: number }) => {
        queries.push(query);
        const before = BigInt(query.before);
        return new Map(messages.filter((message) => BigInt(message.id) < before).map((message) => [message.id, message]));
      },
    },
  } as unknown as TextBasedChannel & { messages: unknown; id: string };
  return { channel, queries };
}

function recorder() {
  const deleted: string[] = [];
  const edited: string[] = [];
  const options = {
    gateway: { messageDeleted: async (revision: MessageRevision) => void deleted.push(revision.externalId) },
    onMessageUpdate: async (message: Message) => void edited.push(message.id),
  };
  return { options, deleted, edited };
}

describe('reading back edits and deletions', () => {
  it('hands on people’s edited messages and the stored ones that are gone, up to the point', async () => {
    const { channel, queries } = channelWith('500', [{ id: '510' }, { id: '520', edited: true }, { id: '530', edited: true, bot: true }, { id: '540' }]);
    const { options, deleted, edited } = recorder();
    const handed = await readBackRevisions(options, channel, { channelId: '500', afterExternalId: '540', peopleSaid: ['500', '510', '515', '520', '545'] });
    expect(queries).toEqual([{ before: '541', limit: 100 }]);
    expect(edited).toEqual(['520']);
    // 500 is the thread's starter message (it lives in the parent channel); 545 is past the point, read as new.
    expect(deleted).toEqual(['515']);
    expect(handed).toBe(2);
  });

  it('judges nothing older than a full page: it was not read, not deleted', async () => {
    const page = Array.from({ length: 100 }, (_, index) => ({ id: String(1000 + index) }));
    const { channel } = channelWith('1', page);
    const { options, deleted } = recorder();
    await readBackRevisions(options, channel, { channelId: '1', afterExternalId: '1099', peopleSaid: ['900', '1050'] });
    expect(deleted).toEqual([]);
  });

  it('reads nothing for a room without people’s messages stored (a brainstorm channel)', async () => {
    const { channel, queries } = channelWith('1', [{ id: '10', edited: true }]);
    const { options, edited } = recorder();
    expect(await readBackRevisions(options, channel, { channelId: '1', afterExternalId: '10' })).toBe(0);
    expect(queries).toEqual([]);
    expect(edited).toEqual([]);
  });
});
