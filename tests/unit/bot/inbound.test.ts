import { Collection, type Attachment, type Sticker } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { messageText } from '../../../src/bot/inbound.ts';

const file = (id: string, name: string, contentType: string | null) =>
  [id, { name, contentType, url: `https://cdn.discordapp.com/attachments/9/${id}/${name}` } as Attachment] as const;

describe('messageText', () => {
  it('keeps the text and names each file and sticker on a line of its own, with where it is', () => {
    const attachments = new Collection([file('1', 'mockup.png', 'image/png'), file('2', 'spec.pdf', 'application/pdf'), file('3', 'notes.bin', null)]);
    const stickers = new Collection([['7', { name: 'thumbs up' } as Sticker]]);
    expect(messageText({ content: '  Thoughts on this mockup? ', attachments, stickers })).toBe(
      [
        'Thoughts on this mockup?',
        '[attached image: mockup.png <https://cdn.discordapp.com/attachments/9/1/mockup.png>]',
        '[attached PDF: spec.pdf <https://cdn.discordapp.com/attachments/9/2/spec.pdf>]',
        '[attached file: notes.bin <https://cdn.discordapp.com/attachments/9/3/notes.bin>]',
        '[sticker: thumbs up]',
      ].join('\n'),
    );
  });

  it('is empty only when there is no text, file or sticker (what a missing Message Content intent leaves)', () => {
    expect(messageText({ content: '', attachments: new Collection(), stickers: new Collection() })).toBe('');
    expect(messageText({ content: '', attachments: new Collection([file('1', 'a.png', 'image/png')]), stickers: new Collection() })).toContain('a.png');
  });
});
