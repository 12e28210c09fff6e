import type { MessageRevision } from '../../core/ports.ts';
import type { PersonRevisions } from '../sessions/person-revisions.ts';
import { TransportMessageKeys } from './transport-message-keys.ts';

/** How many deletions a process remembers: far more than can arrive while one message is being stored. */
const DEFAULT_CAPACITY = 1000;

/**
 * People's messages deleted where they were posted, as this process heard of them. A deletion that comes while its
 * message is still being taken in (its files read, the database slow) finds nothing stored to remove, and the message
 * would then be stored and answered all the same; so the intake asks here right after it stores a message. The
 * transport that delivers a message delivers its deletion too, so the process storing it hears of it.
 */
export class RecentDeletions extends TransportMessageKeys {
  constructor(capacity = DEFAULT_CAPACITY) {
    super(capacity);
  }

  /** Removes a message just stored if it was deleted meanwhile; true when it was (nothing is to act on it then). */
  async removeIfDeleted(message: Pick<MessageRevision, 'transport' | 'externalId'>, revisions: Pick<PersonRevisions, 'remove'>): Promise<boolean> {
    if (!this.has(message.transport, message.externalId)) return false;
    await revisions.remove(message);
    return true;
  }
}
