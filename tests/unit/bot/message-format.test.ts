import { describe, expect, it } from 'vitest';
import { composeText, personaUsername, quoteLine, SIMULATED_MARKER, threadName } from '../../../src/bot/message-format.ts';
import type { ReplyReference } from '../../../src/services/ports.ts';

const reference = (index: number): ReplyReference => ({ messageId: index, externalId: `e${index}`, speakerName: `Speaker ${index}`, excerpt: `point ${index}`, url: `https://discord.com/channels/1/2/${index}` });

describe('message format', () => {
  it('quotes at most three replies with jump links, counts the rest, and marks simulated text', () => {
    const text = composeText({ speaker: { kind: 'participant', name: 'Claude' }, content: 'My answer', replyTo: [1, 2, 3, 4, 5].map(reference), simulated: true });
    expect(text.split('\n')).toEqual([
      '> **Speaker 1**: point 1 [↪](<https://discord.com/channels/1/2/1>)',
      '> **Speaker 2**: point 2 [↪](<https://discord.com/channels/1/2/2>)',
      '> **Speaker 3**: point 3 [↪](<https://discord.com/channels/1/2/3>)',
      '> …and 2 more',
      'My answer',
      SIMULATED_MARKER,
    ]);
  });

  it('keeps a quote on one short line with markdown escaped and no link when there is no url', () => {
    const line = quoteLine({ messageId: 1, externalId: null, speakerName: 'Bob_the*builder', excerpt: `Line one\nline two ${'x'.repeat(200)}`, url: null });
    expect(line.startsWith('> **Bob\\_the\\*builder**: Line one line two')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
    expect(line.length).toBeLessThan(120);
  });

  it('makes webhook usernames Discord accepts', () => {
    expect(personaUsername({ kind: 'participant', name: '  Claude   Sonnet ' })).toBe('Claude Sonnet');
    expect(personaUsername({ kind: 'participant', name: 'Discord Clyde' })).toBe('Disc·ord Cly·de');
    expect(personaUsername({ kind: 'participant', name: '' })).toBe('Brainstorm');
    expect(personaUsername({ kind: 'participant', name: 'n'.repeat(120) })).toHaveLength(80);
  });

  it('names threads on one line within 100 characters', () => {
    expect(threadName('Feature\nflags   for teams')).toBe('Feature flags for teams');
    expect(threadName('t'.repeat(150))).toHaveLength(100);
    expect(threadName('   ')).toBe('Brainstorm');
  });
});
