import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../../src/services/console/console-types.ts';
import type { LocalDelivery } from '../../../src/web/local-transport.ts';
import { mergeRoomFeed } from '../../../src/web/room-feed.ts';
import { chatMessage } from '../../support/chat-messages.ts';

function stored(id: number, name: string, text: string, at: string, externalIds: string[] = []): TranscriptMessage {
  return { ...chatMessage({ id, speaker: { kind: 'participant', name }, text, externalIds }), createdAt: at };
}

function delivery(externalId: string, name: string, content: string, at: string): LocalDelivery {
  return { externalId, roomId: 'r', speaker: { kind: 'system', name }, content, replyTo: [], actions: [], buttons: [], simulated: false, deliveredAt: at };
}

describe('mergeRoomFeed', () => {
  it('pairs deliveries with stored messages by external id, then by speaker and text, and keeps notices in time order', () => {
    const messages = [
      stored(1, 'Planner', 'Plan', '2026-01-01T00:00:01Z', ['x1']),
      stored(2, 'Claude', 'Idea', '2026-01-01T00:00:03Z'),
      stored(3, 'Claude', 'Idea', '2026-01-01T00:00:05Z'),
    ];
    const deliveries = [
      { ...delivery('x1', 'Planner', 'Plan (edited for the room)', '2026-01-01T00:00:01Z'), actions: ['approve_plan' as const] },
      delivery('n1', 'Brainstorm', 'Session paused.', '2026-01-01T00:00:04Z'),
      delivery('x2', 'Claude', 'Idea', '2026-01-01T00:00:03Z'),
      { ...delivery('x3', 'Claude', 'Idea', '2026-01-01T00:00:05Z'), buttons: [{ label: 'Done 1', command: 'done', args: '1@0a1b2c3d' }] },
      delivery('n2', 'Brainstorm', 'Bye.', '2026-01-01T00:00:09Z'),
    ];
    const feed = mergeRoomFeed(messages, deliveries);
    expect(feed.map((item) => (item.kind === 'message' ? `m${item.message.id}:${item.externalId}` : `n:${item.delivery.externalId}`))).toEqual([
      'm1:x1',
      'm2:x2',
      'n:n1',
      'm3:x3',
      'n:n2',
    ]);
    expect(feed[0]?.kind === 'message' && feed[0].actions).toEqual(['approve_plan']);
    expect(feed.map((item) => (item.kind === 'message' ? item.buttons.map((button) => button.label) : null))).toEqual([[], [], null, ['Done 1'], null]);
  });

  it('shows stored messages alone when nothing was delivered locally (a Discord session)', () => {
    const feed = mergeRoomFeed([stored(1, 'Ada', 'hi', '2026-01-01T00:00:00Z')], []);
    expect(feed).toEqual([{ kind: 'message', message: expect.objectContaining({ id: 1 }), actions: [], buttons: [], externalId: null }]);
  });
});
