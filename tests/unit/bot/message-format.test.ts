import { describe, expect, it } from 'vitest';
import { composeChunks, personaUsername, replyLine, SIMULATED_MARKER, threadName } from '../../../src/bot/message-format.ts';
import type { ReplyReference } from '../../../src/core/ports.ts';

const reference = (index: number): ReplyReference => ({
  messageId: index,
  externalId: `e${index}`,
  speakerName: `Speaker ${index}`,
  excerpt: `point ${index}`,
  url: `https://discord.com/channels/1/2/${index}`,
});

describe('message format', () => {
  it('puts reply references on one small line with jump links, then the text and the simulated marker', () => {
    const chunks = composeChunks({
      speaker: { kind: 'participant', name: 'Claude' },
      content: 'My answer',
      replyTo: [1, 2, 1].map(reference),
      simulated: true,
    });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.split('\n')).toEqual([
      '-# ↪ replying to Speaker 1 [#1](<https://discord.com/channels/1/2/1>) [#1](<https://discord.com/channels/1/2/1>), Speaker 2 [#2](<https://discord.com/channels/1/2/2>)',
      'My answer',
      SIMULATED_MARKER,
    ]);
  });

  it('drops the oldest links, then the line, before an answer that fits one message would be split', () => {
    const replyTo = [1, 2, 3, 4, 5].map(reference);
    const fits = (content: string): string[] => composeChunks({ speaker: { kind: 'participant', name: 'Claude' }, content, replyTo });
    const [withSomeLinks] = fits('a'.repeat(1850));
    expect(withSomeLinks!.length).toBeLessThanOrEqual(2000);
    expect(withSomeLinks).toContain('[#5]');
    expect(withSomeLinks).not.toContain('[#1]');
    expect(fits('a'.repeat(1990))).toEqual(['a'.repeat(1990)]);
  });

  it('keeps the reply line with the first part of an answer that must be split', () => {
    const chunks = composeChunks({ speaker: { kind: 'participant', name: 'Claude' }, content: 'b'.repeat(3500), replyTo: [1, 2].map(reference) });
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.startsWith('-# ↪ replying to Speaker 1')).toBe(true);
    expect(chunks[0]!.split('\n')[1]).toMatch(/^b+$/);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(2000);
  });

  it('escapes markdown in names and links nothing without a url', () => {
    expect(replyLine([{ messageId: 1, externalId: null, speakerName: 'Bob_the*builder', excerpt: 'x', url: null }], 200)).toBe(
      '-# ↪ replying to Bob\\_the\\*builder',
    );
    expect(replyLine([reference(1)], 10)).toBe('');
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
    expect(threadName('Thoughts on this mockup?\n[attached image: mockup.png <https://cdn.discordapp.com/attachments/1/2/mockup.png>]')).toBe(
      'Thoughts on this mockup?',
    );
    expect(threadName('   ')).toBe('Brainstorm');
    const shared = '[attached file: prd.md <https://cdn.discordapp.com/attachments/1/2/prd.md>]\n```\n# PRD\nGoal: faster onboarding\n```';
    expect(threadName(`Review the PRD\n${shared}\n(the first 20 of 900 characters)`)).toBe('Review the PRD');
    expect(threadName(shared)).toBe('Brainstorm');
  });
});
