import { describe, expect, it } from 'vitest';
import { PreviewPacer } from '../../../src/bot/preview-pacer.ts';
import { ManualClock } from '../../../src/core/clock.ts';

describe('PreviewPacer', () => {
  it('sends at most one edit per second per message, always the newest text', async () => {
    const clock = new ManualClock();
    const pacer = new PreviewPacer(clock);
    const sent: { text: string; at: number }[] = [];
    const edit = (text: string) => () => {
      sent.push({ text, at: clock.now().getTime() });
      return Promise.resolve();
    };
    const start = clock.now().getTime();
    pacer.posted('m1');
    const first = pacer.schedule('m1', edit('a'));
    const second = pacer.schedule('m1', edit('ab'));
    expect(sent).toEqual([]);
    await clock.advance(1000);
    await Promise.all([first, second]);
    const third = pacer.schedule('m1', edit('abc'));
    await clock.advance(400);
    expect(sent.map((entry) => entry.text)).toEqual(['ab']);
    await clock.advance(600);
    await third;
    expect(sent).toEqual([
      { text: 'ab', at: start + 1000 },
      { text: 'abc', at: start + 2000 },
    ]);
  });

  it('drops a waiting edit when the message is finished, and leaves other messages alone', async () => {
    const clock = new ManualClock();
    const pacer = new PreviewPacer(clock);
    const sent: string[] = [];
    pacer.posted('m1');
    pacer.posted('m2');
    const dropped = pacer.schedule('m1', async () => void sent.push('m1'));
    const kept = pacer.schedule('m2', async () => void sent.push('m2'));
    pacer.finish('m1');
    await clock.advance(1000);
    await Promise.all([dropped, kept]);
    expect(sent).toEqual(['m2']);
  });

  it('settles a stream: a waiting edit is dropped, one being sent is awaited, and nothing is sent after', async () => {
    const clock = new ManualClock();
    const pacer = new PreviewPacer(clock);
    const sent: string[] = [];
    let release: () => void = () => undefined;
    pacer.posted('m1');
    await clock.advance(1000);
    const sending = pacer.schedule('m1', () => new Promise<void>((resolve) => (release = resolve)).then(() => void sent.push('sent')));
    const waiting = pacer.schedule('m1', async () => void sent.push('waiting'));
    let settled = false;
    const settling = pacer.settle('m1').then(() => (settled = true));
    await clock.advance(0);
    expect(settled).toBe(false);
    release();
    await Promise.all([settling, sending, waiting]);
    await clock.advance(2000);
    await pacer.schedule('m1', async () => void sent.push('after the stream settled'));
    expect(sent).toEqual(['sent']);
    expect([pacer.editable('m1'), pacer.editable('another')]).toEqual([false, true]);
  });

  it('still paces the final edit of a settled stream a second after its last edit', async () => {
    const clock = new ManualClock();
    const pacer = new PreviewPacer(clock);
    pacer.posted('m1');
    await clock.advance(1000);
    await pacer.schedule('m1', async () => undefined);
    await pacer.settle('m1');
    let finished = false;
    const finishing = pacer.finish('m1').then(() => (finished = true));
    await clock.advance(999);
    expect(finished).toBe(false);
    await clock.advance(1);
    await finishing;
    expect(finished).toBe(true);
  });

  it('holds the final edit until a second after the last edit, and not at all when nothing was edited', async () => {
    const clock = new ManualClock();
    const pacer = new PreviewPacer(clock);
    pacer.posted('edited');
    pacer.posted('untouched');
    const streamed = pacer.schedule('edited', async () => undefined);
    await clock.advance(1000);
    await streamed;
    await clock.advance(300);
    let released = false;
    const finished = pacer.finish('edited').then(() => (released = true));
    await clock.advance(699);
    expect(released).toBe(false);
    await clock.advance(1);
    await finished;
    expect(released).toBe(true);
    await pacer.finish('untouched');
    expect(clock.pendingSleepers).toBe(0);
    let late = false;
    await pacer.schedule('edited', async () => void (late = true));
    expect(late).toBe(false);
  });

  it('past `remember` messages finishes the oldest post, even one being edited, and keeps pacing the newer ones', async () => {
    const clock = new ManualClock();
    const pacer = new PreviewPacer(clock, 1000, 2);
    const sent: string[] = [];
    const edit = (text: string) => async () => void sent.push(text);
    pacer.posted('m1');
    pacer.posted('m2');
    const dropped = pacer.schedule('m1', edit('m1'));
    pacer.posted('m3');
    const paced = pacer.schedule('m2', edit('m2'));
    expect(sent).toEqual([]);
    await clock.advance(1000);
    await Promise.all([dropped, paced]);
    expect(sent).toEqual(['m2']);
    await pacer.schedule('m1', edit('m1 late'));
    await pacer.finish('m1');
    expect(clock.pendingSleepers).toBe(0);
    pacer.posted('m4');
    await pacer.schedule('m2', edit('m2 late'));
    await pacer.schedule('m3', edit('m3'));
    expect(sent).toEqual(['m2', 'm3']);
    const final = pacer.finish('m3');
    await clock.advance(0);
    // One interval each for the evicted m2 and the finished m3, both edited: finishing never runs twice.
    expect(clock.pendingSleepers).toBe(2);
    await clock.advance(1000);
    await final;
  });
});
