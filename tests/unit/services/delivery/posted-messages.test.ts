import { describe, expect, it } from 'vitest';
import { PostedMessages, REMEMBERED } from '../../../../src/services/delivery/posted-messages.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const GROK = { kind: 'participant', name: 'Grok' } as const;
const answer = (id: number, sessionId = 'ses_1') => chatMessage({ id, sessionId, speaker: GROK, text: `answer ${id}`, deliveryStatus: 'pending' });

describe('PostedMessages', () => {
  it('hands a message to its first delivery once, its settled targets as held and pending ones as delivered here', () => {
    const posted = new PostedMessages();
    const person = chatMessage({ id: 1, speaker: { kind: 'human', name: 'Bea', id: 'u1' }, text: 'why?', deliveryStatus: 'received', externalIds: ['d-1'] });
    const earlier = answer(2);
    posted.remember(answer(3), [earlier, person]);
    expect(posted.waiting('ses_1')).toBe(true);
    // The earlier answer's room copy is unknown here (another process delivered it): the database must answer.
    expect(posted.take(3)).toBeUndefined();
    expect(posted.waiting('ses_1')).toBe(false);

    posted.remember(answer(4), [earlier, person]);
    posted.delivered({ ...earlier, deliveryStatus: 'delivered', externalIds: ['d-2a', 'd-2b'], externalUrl: 'https://room/d-2a' });
    const subject = posted.take(4);
    expect(subject?.targets.map((target) => [target.id, target.deliveryStatus, target.externalIds, target.externalUrl])).toEqual([
      [2, 'delivered', ['d-2a', 'd-2b'], 'https://room/d-2a'],
      [1, 'received', ['d-1'], null],
    ]);
    expect(posted.take(4)).toBeUndefined();
  });

  it('forgets the oldest past its bound, and counts what waits per session', () => {
    const posted = new PostedMessages();
    for (let id = 1; id <= REMEMBERED + 1; id += 1) posted.remember(answer(id, id === 1 ? 'ses_old' : 'ses_1'), []);
    expect(posted.size).toBe(REMEMBERED);
    expect(posted.waiting('ses_old')).toBe(false);
    expect(posted.take(1)).toBeUndefined();
    expect(posted.take(REMEMBERED + 1)?.message.text).toBe(`answer ${REMEMBERED + 1}`);
  });
});
