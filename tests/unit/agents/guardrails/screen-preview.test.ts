/**
 * Issue 12, point 5: a streaming preview showed a raw `@everyone ▍` before the answer was withheld. Previews pass the
 * same checks as final answers, and a word still being written is not shown until it is complete.
 */
import { describe, expect, it } from 'vitest';
import { HELD_PREVIEW_TEXT, screenPreview } from '../../../../src/agents/guardrails/index.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import { StreamDraft } from '../../../../src/services/delivery/stream-draft.ts';
import type { OutgoingMessage } from '../../../../src/core/ports.ts';
import { MemoryTransport } from '../../../support/memory-transport.ts';
import { gluedOpenRouterKey } from './secret-samples.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A room that remembers every text it was ever shown, edits included. */
class RecordingRoom extends MemoryTransport {
  readonly shown: string[] = [];
  override async postPreview(roomId: string, message: OutgoingMessage): Promise<string> {
    this.shown.push(message.content);
    return super.postPreview(roomId, message);
  }
  override async editPreview(roomId: string, externalId: string, message: OutgoingMessage): Promise<void> {
    this.shown.push(message.content);
    return super.editPreview(roomId, externalId, message);
  }
}

async function stream(chunks: string[]): Promise<string[]> {
  const clock = new ManualClock();
  const room = new RecordingRoom();
  const draft = new StreamDraft(
    room,
    'room-1',
    { speaker: { kind: 'participant', name: 'Grok' }, replyTo: [] },
    clock,
    (text) => screenPreview(text),
    () => undefined,
  );
  let text = '';
  for (const chunk of chunks) {
    text += chunk;
    draft.update(text);
    await flush();
    await clock.advance(1100);
  }
  await draft.finish();
  return room.shown;
}

describe('screenPreview', () => {
  it('never shows a mass mention, not even while it streams', async () => {
    const shown = await stream(['@every', 'one ', 'look at ', 'this idea ']);
    expect(shown.join('\n')).not.toMatch(/@every/);
    expect(shown.at(-1)).toBe(`${HELD_PREVIEW_TEXT} ▍`);
  });

  it('never shows a key or a part of one while it streams', async () => {
    const key = gluedOpenRouterKey();
    const shown = await stream(['The key is ', key.slice(0, 30), key.slice(30), ' and more ']);
    expect(shown.join('\n')).not.toContain(key.slice(5, 25));
  });

  it('holds a masked link back', () => {
    expect(screenPreview('Read [https://docs.example.com](https://evil.example.net) first ')).toBe(HELD_PREVIEW_TEXT);
  });

  it('shows ordinary text up to its last complete word', () => {
    expect(screenPreview('Caching at the edge hal')).toBe('Caching at the edge');
    expect(screenPreview('Caching')).toBe('…');
  });
});
