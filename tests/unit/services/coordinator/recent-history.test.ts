import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/core/domain.ts';
import type { MessageChanges, RecentMessagesRead } from '../../../../src/repositories/message-changes.ts';
import { RecentHistorySource } from '../../../../src/services/coordinator/recent-history.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

/** Messages of sessions with a write counter for a horizon, answering as the repository does. */
class FakeMessages {
  private rows: { message: ChatMessage; deleted: boolean; written: number }[] = [];
  private writes = 0;
  reads = { recent: 0, changes: 0, spoken: 0 };
  failNext = false;

  store(sessionId: string, id: number, text = `message ${id}`, speaker = 'Ada'): void {
    this.writes += 1;
    const message = chatMessage({ id, sessionId, text, speaker: { kind: speaker === 'Ada' ? 'human' : 'participant', name: speaker } });
    this.rows = [...this.rows.filter((row) => row.message.id !== id), { message, deleted: false, written: this.writes }];
  }

  remove(id: number): void {
    this.writes += 1;
    for (const row of this.rows) if (row.message.id === id) Object.assign(row, { deleted: true, written: this.writes });
  }

  async recentAtHorizon(sessionId: string, count: number): Promise<RecentMessagesRead> {
    this.reads.recent += 1;
    const live = this.live(sessionId).filter((row) => !row.deleted);
    return { horizon: String(this.writes + 1), messages: live.slice(-count).map((row) => row.message) };
  }

  async changesSince(sessionId: string, horizon: string): Promise<MessageChanges> {
    this.reads.changes += 1;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection lost');
    }
    const written = this.live(sessionId).filter((row) => row.written >= Number(horizon));
    return {
      horizon: String(this.writes + 1),
      changed: written.filter((row) => !row.deleted).map((row) => row.message),
      deletedIds: written.filter((row) => row.deleted).map((row) => row.message.id),
    };
  }

  async spokenBy(sessionId: string, options: { beforeId?: number } = {}): Promise<Map<string, { count: number; lastId: number }>> {
    this.reads.spoken += 1;
    const spoken = new Map<string, { count: number; lastId: number }>();
    for (const { message, deleted } of this.live(sessionId)) {
      if (deleted || message.speaker.kind !== 'participant' || message.id >= (options.beforeId ?? Infinity)) continue;
      const before = spoken.get(message.speaker.name);
      spoken.set(message.speaker.name, { count: (before?.count ?? 0) + 1, lastId: message.id });
    }
    return spoken;
  }

  private live(sessionId: string) {
    return this.rows.filter((row) => row.message.sessionId === sessionId).sort((a, b) => a.message.id - b.message.id);
  }
}

const ids = (history: { messages: ChatMessage[] }) => history.messages.map((message) => message.id);

describe('RecentHistorySource', () => {
  it('reads a session whole once, then only what changed, as a full read would answer', async () => {
    const messages = new FakeMessages();
    for (const id of [1, 2, 3]) messages.store('s1', id);
    const history = new RecentHistorySource({ messages, window: 4 });
    expect(await history.read('s1')).toEqual({ messages: (await messages.recentAtHorizon('s1', 4)).messages, complete: true });
    messages.store('s1', 4);
    messages.store('s1', 2, 'message 2, edited');
    messages.remove(1);
    const next = await history.read('s1');
    expect(ids(next)).toEqual([2, 3, 4]);
    expect(next.messages[0]?.text).toBe('message 2, edited');
    expect(next.complete).toBe(true);
    expect(messages.reads).toEqual({ recent: 2, changes: 1, spoken: 0 });
  });

  it('keeps the newest `window` messages and says when older ones exist', async () => {
    const messages = new FakeMessages();
    for (const id of [1, 2, 3]) messages.store('s1', id);
    const history = new RecentHistorySource({ messages, window: 3 });
    expect((await history.read('s1')).complete).toBe(false);
    messages.store('s1', 4);
    messages.store('s1', 5);
    expect(await history.read('s1')).toMatchObject({ complete: false });
    expect(ids(await history.read('s1'))).toEqual([3, 4, 5]);
  });

  it('counts what each participant said in the whole session once, then from the messages leaving the window', async () => {
    const messages = new FakeMessages();
    for (const [id, speaker] of [
      [1, 'Claude'],
      [2, 'Ada'],
      [3, 'Claude'],
      [4, 'Grok'],
    ] as const)
      messages.store('s1', id, `message ${id}`, speaker);
    const history = new RecentHistorySource({ messages, window: 3 });
    expect((await history.read('s1')).spoken).toEqual(await messages.spokenBy('s1'));
    messages.store('s1', 5, 'message 5', 'Claude');
    messages.store('s1', 6, 'message 6', 'Grok');
    messages.store('s1', 7, 'message 7', 'Ada');
    const later = await history.read('s1');
    expect(ids(later)).toEqual([5, 6, 7]);
    expect(later.spoken).toEqual(await messages.spokenBy('s1'));
    expect(later.spoken?.get('Claude')).toEqual({ count: 3, lastId: 5 });
    expect(messages.reads.spoken).toBe(3);
  });

  it('takes in a message that committed after a newer one, and leaves out changes older than its window', async () => {
    const messages = new FakeMessages();
    for (const id of [10, 11, 13]) messages.store('s1', id);
    const whole = new RecentHistorySource({ messages, window: 5 });
    const windowed = new RecentHistorySource({ messages, window: 2 });
    await whole.read('s1');
    await windowed.read('s1');
    messages.store('s1', 12);
    messages.store('s1', 10, 'an old message, changed');
    expect(ids(await whole.read('s1'))).toEqual([10, 11, 12, 13]);
    expect(ids(await windowed.read('s1'))).toEqual([12, 13]);
  });

  it('applies the reads of one session one after another, and a failed read changes nothing', async () => {
    const messages = new FakeMessages();
    messages.store('s1', 1);
    const history = new RecentHistorySource({ messages, window: 10 });
    await history.read('s1');
    messages.store('s1', 2);
    messages.failNext = true;
    const [failed, next] = await Promise.allSettled([history.read('s1'), history.read('s1')]);
    expect(failed.status).toBe('rejected');
    expect(next.status === 'fulfilled' && ids(next.value)).toEqual([1, 2]);
  });

  it('forgets the least recently read sessions past its capacity, and an ended one at once', async () => {
    const messages = new FakeMessages();
    for (const [sessionId, first] of [
      ['s1', 1],
      ['s2', 10],
      ['s3', 20],
    ] as const)
      for (let id = first; id < first + 3; id += 1) messages.store(sessionId, id);
    const history = new RecentHistorySource({ messages, window: 10, capacity: 6 });
    await history.read('s1');
    await history.read('s2');
    await history.read('s1');
    await history.read('s3');
    expect(history.size).toBe(6);
    const before = messages.reads.recent;
    await history.read('s1');
    expect(messages.reads.recent).toBe(before);
    await history.read('s2');
    expect(messages.reads.recent).toBe(before + 1);
    history.forget('s2');
    expect(history.size).toBe(3);
  });

  it('hands out copies: a caller that changes its list changes nothing held', async () => {
    const messages = new FakeMessages();
    messages.store('s1', 1);
    const history = new RecentHistorySource({ messages, window: 10 });
    (await history.read('s1')).messages.pop();
    expect(ids(await history.read('s1'))).toEqual([1]);
  });
});
