import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { StreamDraft } from '../../../../src/services/delivery/stream-draft.ts';
import { MemoryTransport } from '../../../support/memory-transport.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('StreamDraft', () => {
  it('posts on the first words, edits at most once a second, and always shows the latest text', async () => {
    const clock = new ManualClock();
    const transport = new MemoryTransport();
    const draft = new StreamDraft(
      transport,
      'room-1',
      { speaker: { kind: 'participant', name: 'Claude' }, replyTo: [] },
      clock,
      (text) => text,
      () => undefined,
    );
    draft.update('Hello');
    await flush();
    expect(transport.messages).toHaveLength(1);
    expect(transport.messages[0]?.content).toBe('Hello ▍');
    for (let index = 0; index < 30; index += 1) {
      draft.update(`Hello ${'word '.repeat(index + 1)}`);
      await clock.advance(100);
    }
    // 3 seconds of streaming: at most 3 edits, and the last one carries the newest text.
    expect(draft.editCount).toBeLessThanOrEqual(3);
    expect(draft.editCount).toBeGreaterThanOrEqual(2);
    await clock.advance(1000);
    expect(transport.messages[0]?.content).toBe(`Hello ${'word '.repeat(30)} ▍`);
    expect(await draft.finish()).toBe(transport.messages[0]?.externalId);
  });

  it('masks secrets in the preview', async () => {
    const clock = new ManualClock();
    const transport = new MemoryTransport();
    const draft = new StreamDraft(
      transport,
      'room-1',
      { speaker: { kind: 'participant', name: 'Grok' }, replyTo: [] },
      clock,
      (text) => text.replace(/sk-\S+/g, '[redacted]'),
      () => undefined,
    );
    draft.update('the key is sk-abcdef123456');
    await flush();
    expect(transport.messages[0]?.content).toBe('the key is [redacted] ▍');
  });
});
