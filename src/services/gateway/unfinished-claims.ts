import { TransportMessageKeys } from './transport-message-keys.ts';

/** How many messages a process remembers as cut short; past it the oldest is forgotten (a transport holds 500). */
const DEFAULT_CAPACITY = 2000;

/**
 * People's messages this process claimed, or tried to, whose handling the database cut short. The transport holds
 * such a message and hands it over again; the claim, if it committed, is then this process's own and is taken again.
 * Read as another's, it dropped the message: a claim whose answer was lost, or a store that failed after the claim.
 */
export class UnfinishedClaims extends TransportMessageKeys {
  constructor(capacity = DEFAULT_CAPACITY) {
    super(capacity);
  }
}
