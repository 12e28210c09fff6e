import { describe, expect, it } from 'vitest';
import type { Speaker } from '../../../../src/core/domain.ts';
import { SHARED_FILES_HEADING, sharedFilesIn, withoutFileAddresses, withSharedFiles } from '../../../../src/agents/scribe/shared-files.ts';
import { citedLine, fallbackRecord } from '../../../../src/agents/scribe/scribe-input.ts';
import { formatMessages } from '../../../../src/services/moderation/moderation-messages.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const ANA: Speaker = { kind: 'human', id: 'u1', name: 'Ana' };
const CDN = 'https://cdn.discordapp.com/attachments/1/2/mockup.png?ex=6650a1b2&is=664f5032&hm=abc123';
const TEXT = `Here is the new layout.\n[attached image: mockup.png <${CDN}>]\n[attached PDF: Q3 plan (final).pdf <https://cdn.discordapp.com/attachments/1/3/plan.pdf?ex=1>]`;

describe('files people share, in the record', () => {
  it('reads the file lines of a message, and leaves their expiring addresses out of the text', () => {
    expect(sharedFilesIn(TEXT)).toEqual([
      { kind: 'image', name: 'mockup.png' },
      { kind: 'PDF', name: 'Q3 plan (final).pdf' },
    ]);
    expect(withoutFileAddresses(TEXT)).toBe('Here is the new layout.\n[attached image: mockup.png]\n[attached PDF: Q3 plan (final).pdf]');
    // A line that only looks alike inside a sentence is a person's words, kept as written.
    expect(withoutFileAddresses(`see [attached image: x <${CDN}>] above`)).toContain(CDN);
  });

  it('never shows the Scribe an address that will stop working, in new messages or the statistics record', () => {
    const message = { id: 7, number: 7, speaker: ANA, text: TEXT, citations: [], createdAt: new Date('2026-11-28T10:00:00Z') };
    expect(citedLine(message)).toBe('#7 [Ana (person)]: Here is the new layout.\n[attached image: mockup.png]\n[attached PDF: Q3 plan (final).pdf]');
    expect(fallbackRecord({ topic: 'Layout', objectives: [] }, [message], 'The model failed.')).not.toContain('cdn.discordapp.com');
    // The wrap-up's Scribe reads the last messages as the Moderator does: the same lines, people marked as people.
    expect(formatMessages([chatMessage({ ...message, role: 'user' })])).toBe(citedLine(message));
  });

  it('lists each file with who shared it and the lasting link to its message; a pass replaces the section, and none means none', () => {
    const messages = [
      { number: 3, speaker: ANA, text: TEXT, externalUrl: 'https://discord.com/channels/1/2/3' },
      { number: 4, speaker: { kind: 'participant', name: 'Claude' } as Speaker, text: `[attached image: quoted.png <${CDN}>]`, externalUrl: null },
      { number: 5, speaker: ANA, text: `[attached file: notes_v2.txt <https://cdn.discordapp.com/a/b/notes.txt>]`, externalUrl: null },
    ];
    const record = withSharedFiles('# Detailed record\n## Discussion flow\n- Ana shared a mockup (#3).', messages);
    expect(record).toContain(
      [
        SHARED_FILES_HEADING,
        '- `mockup.png` (image) — Ana, [#3](https://discord.com/channels/1/2/3)',
        '- `Q3 plan (final).pdf` (PDF) — Ana, [#3](https://discord.com/channels/1/2/3)',
        '- `notes_v2.txt` (file) — Ana, #5',
      ].join('\n'),
    );
    expect(record).not.toContain('cdn.discordapp.com');
    expect(record).not.toContain('quoted.png');
    expect(withSharedFiles(record, messages)).toBe(record);
    expect(withSharedFiles(`${record}\n## Web sources\n- [A](https://a.example) — Claude, #4`, [])).toBe(
      '# Detailed record\n## Discussion flow\n- Ana shared a mockup (#3).\n\n## Web sources\n- [A](https://a.example) — Claude, #4',
    );
  });
});
