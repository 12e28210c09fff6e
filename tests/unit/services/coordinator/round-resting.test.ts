import { describe, expect, it } from 'vitest';
import { restingAfterRound } from '../../../../src/services/coordinator/round-seating.ts';

const none = new Set<string>();

describe('who sits out the AI rounds after a repeat', () => {
  it('rests a round’s repeaters and keeps those resting before, unless they answered', () => {
    expect([...restingAfterRound('ai', none, { repeaterIds: ['grok'], answeredIds: new Set(['claude']) })]).toEqual(['grok']);
    expect([...restingAfterRound('ai', new Set(['grok']), { repeaterIds: ['claude'], answeredIds: none })]).toEqual(['grok', 'claude']);
    expect([...restingAfterRound('ai', new Set(['grok', 'claude']), { repeaterIds: [], answeredIds: new Set(['grok']) })]).toEqual(['claude']);
  });

  it('starts afresh after a person’s round: only who repeated in it rests', () => {
    expect([...restingAfterRound('human', new Set(['grok', 'claude']), { repeaterIds: ['claude'], answeredIds: new Set(['grok']) })]).toEqual(['claude']);
    expect([...restingAfterRound('human', new Set(['grok']), { repeaterIds: [], answeredIds: none })]).toEqual([]);
  });
});
