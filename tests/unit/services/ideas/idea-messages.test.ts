import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/core/domain.ts';
import { ballotMessage } from '../../../../src/services/critique/critique-markdown.ts';
import { ideaMessages } from '../../../../src/services/ideas/ledger-pass.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const started = new Date('2026-05-01T09:00:00Z');

function said(id: number, kind: 'human' | 'participant' | 'moderator', text: string, secondsAfterStart: number): ChatMessage {
  const name = kind === 'human' ? 'Ada' : kind === 'moderator' ? 'Moderator' : 'Claude';
  return chatMessage({ id, speaker: { kind, name }, text, createdAt: new Date(started.getTime() + secondsAfterStart * 1000) });
}

describe('ideaMessages (what the Idea Extractor reads)', () => {
  it('reads people and participants from the approval on, and no critique ballot: it ranks the ideas, it is none', () => {
    const ballot = ballotMessage({
      participant: 'Claude',
      ranking: ['B', 'A'],
      weakestAssumptions: [{ label: 'B', assumption: 'Time.' }],
      reason: 'Reversible.',
    });
    const messages = [
      said(1, 'human', 'Pricing for the new tier', -60),
      said(2, 'human', 'Start with two tiers.', 5),
      said(3, 'participant', 'Add an annual discount.', 10),
      said(4, 'moderator', 'Welcome, everyone.', 11),
      said(5, 'participant', ballot, 20),
    ];
    expect(ideaMessages(messages, started).map((message) => message.id)).toEqual([2, 3]);
  });
});
