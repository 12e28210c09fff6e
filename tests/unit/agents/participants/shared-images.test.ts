import { describe, expect, it } from 'vitest';
import { buildParticipantInput } from '../../../../src/agents/participants/conversation-input.ts';
import { imageAddressesIn, imagesToShow, isExpiredAddress, MAX_IMAGES_PER_PROMPT } from '../../../../src/agents/participants/shared-images.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const now = new Date('2026-05-01T09:00:00Z');
const hex = (date: Date) => Math.floor(date.getTime() / 1000).toString(16);
const cdn = (name: string, expires = new Date(now.getTime() + 3_600_000)) =>
  `https://cdn.discordapp.com/attachments/1/2/${name}?ex=${hex(expires)}&is=${hex(now)}&hm=ab&`;
const line = (name: string, address = cdn(name)) => `[attached image: ${name} <${address}>]`;
const person = (id: number, text: string) => chatMessage({ id, speaker: { kind: 'human', name: 'Bea' }, text });

describe('images people attached', () => {
  it('are read from the lines naming them, and only image lines count', () => {
    const text = ['Look at these:', line('a.png'), '[attached PDF: spec.pdf <https://cdn.discordapp.com/attachments/1/2/spec.pdf>]', line('b.png')].join('\n');
    expect(imageAddressesIn(text)).toEqual([cdn('a.png'), cdn('b.png')]);
    expect(imageAddressesIn('I typed [attached image: x <not a url>] inline')).toEqual([]);
  });

  it('a Discord CDN address expires at its signed `ex` time; other hosts are taken as they are', () => {
    expect(isExpiredAddress(cdn('a.png'), now)).toBe(false);
    expect(isExpiredAddress(cdn('a.png', new Date(now.getTime() - 1000)), now)).toBe(true);
    expect(isExpiredAddress(cdn('a.png', now), now)).toBe(true);
    expect(isExpiredAddress('https://media.discordapp.net/attachments/1/2/a.png?ex=1&is=1&hm=1', now)).toBe(true);
    expect(isExpiredAddress('https://example.com/a.png?ex=1', now)).toBe(false);
    expect(isExpiredAddress('https://cdn.discordapp.com/embed/avatars/1.png', now)).toBe(false);
  });

  it(`shows the newest ${MAX_IMAGES_PER_PROMPT} of people's images, skipping expired ones and what participants quote`, () => {
    const messages = [
      person(1, line('oldest.png')),
      person(2, [line('two.png'), line('three.png')].join('\n')),
      chatMessage({ id: 3, speaker: { kind: 'participant', name: 'Grok' }, text: line('quoted.png') }),
      person(4, line('expired.png', cdn('expired.png', new Date(now.getTime() - 1)))),
      person(5, [line('five.png'), line('six.png'), line('seven.png')].join('\n')),
    ];
    const shown = imagesToShow(messages, now);
    expect([...shown.entries()]).toEqual([
      [5, [cdn('five.png'), cdn('six.png'), cdn('seven.png')]],
      [2, [cdn('three.png')]],
    ]);
  });

  it('go into the user item of the words that came with them, after those words', () => {
    const messages = [
      person(1, 'Plain words.'),
      chatMessage({ id: 2, speaker: { kind: 'participant', name: 'Claude' }, text: 'My earlier answer.' }),
      person(3, `Which reads faster?\n${line('layouts.png')}`),
    ];
    const items = buildParticipantInput({ selfName: 'Claude', messages, record: null, answering: [], images: imagesToShow(messages, now) });
    expect(items[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: '[Bea (person)]: Plain words.' }] });
    expect(items[2]).toMatchObject({
      role: 'user',
      content: [
        { type: 'input_text', text: `[Bea (person)]: Which reads faster?\n${line('layouts.png')}` },
        { type: 'input_image', image: cdn('layouts.png') },
      ],
    });
  });

  it('are left out when none is to be shown: the input is words alone, as before', () => {
    const messages = [person(1, `Which reads faster?\n${line('layouts.png')}`)];
    const items = buildParticipantInput({ selfName: 'Claude', messages, record: null, answering: [] });
    expect(JSON.stringify(items)).not.toContain('input_image');
  });
});
