import { describe, expect, it } from 'vitest';
import { HistoryTokens } from '../../../../src/services/context/history-tokens.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const message = chatMessage({ id: 1, speaker: { kind: 'participant', name: 'Claude' }, text: 'A point.' });
const recent = [message];
const rawCount = () => 7;
const asIs = (raw: number) => raw;

describe('HistoryTokens', () => {
  it('remembers 2000 sessions, forgetting the one extended longest ago; reading a session does not keep it', () => {
    const sizes = new HistoryTokens();
    for (let index = 0; index < 2000; index += 1) sizes.extend(`session-${index}`, [message], rawCount, true);
    sizes.extend('session-0', [], rawCount, false);
    expect(sizes.covers('session-1', recent)).toBe(true);
    expect(sizes.olderThan('session-1', 2, asIs)).toBe(7);
    sizes.extend('session-2000', [message], rawCount, true);
    expect(sizes.covers('session-0', recent)).toBe(true);
    expect(sizes.covers('session-1', recent)).toBe(false);
    expect(sizes.olderThan('session-1', 2, asIs)).toBe(0);
    expect(sizes.olderThan('session-2', 2, asIs)).toBe(7);
    sizes.extend('session-2001', [message], rawCount, true);
    expect(sizes.covers('session-2', recent)).toBe(false);
    expect(sizes.olderThan('session-0', 2, asIs)).toBe(7);
  });
});
