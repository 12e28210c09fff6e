/**
 * A person editing or deleting what they posted: the stored message follows, so the models' next turns, the
 * Scribe's next pass and the console read what the person now says, and nothing they took back. An edit starts no
 * new answers (the room would hear the same question twice); it is read from the next turn on.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage } from '../../core/domain.ts';
import type { EventBus, MessageRevision } from '../../core/ports.ts';
import type { PersonRevisionsRepository } from '../../repositories/person-revisions-repository.ts';

/** What following people's edits and deletions needs. */
export interface PersonRevisionsOptions {
  revisions: Pick<PersonRevisionsRepository, 'findBySource' | 'revise' | 'remove'>;
  events: Pick<EventBus, 'publish'>;
  clock: Clock;
  logger: Logger;
  /** The session's stored messages changed: its Scribe pass is scheduled, so the record follows. */
  onChanged: (sessionId: string) => Promise<void>;
}

/** Applies people's edits and deletions to their stored messages. */
export class PersonRevisions {
  constructor(private readonly options: PersonRevisionsOptions) {}

  /** The stored message an edit or deletion is about: its author's own, still there; null for anything else. */
  async storedFor(revision: Pick<MessageRevision, 'transport' | 'externalId'> & { authorId?: string }): Promise<ChatMessage | null> {
    const stored = await this.options.revisions.findBySource(`${revision.transport}:${revision.externalId}`);
    if (!stored || (revision.authorId !== undefined && stored.speaker.id !== revision.authorId)) return null;
    return stored;
  }

  /** Replaces a stored message's text with its author's edit (already screened); null when nothing changed. */
  async edit(stored: ChatMessage, text: string): Promise<ChatMessage | null> {
    if (stored.text === text) return null;
    const revised = await this.options.revisions.revise(stored.id, text, this.options.clock.now());
    if (revised) await this.announce(revised);
    return revised;
  }

  /** Removes a message its author deleted where it was posted; null when it was not stored or is gone already. */
  async remove(revision: Pick<MessageRevision, 'transport' | 'externalId'>): Promise<ChatMessage | null> {
    const stored = await this.storedFor(revision);
    if (!stored) return null;
    const removed = await this.options.revisions.remove(stored.id, this.options.clock.now());
    if (removed) await this.announce({ ...removed, deleted: true });
    return removed;
  }

  private async announce(message: ChatMessage): Promise<void> {
    this.options.logger.info({ session: message.sessionId, messageId: message.id, deleted: message.deleted === true }, "a person's message changed");
    this.options.events.publish({ type: 'message', message });
    await this.options.onChanged(message.sessionId);
  }
}
