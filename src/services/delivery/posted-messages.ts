import type { ChatMessage } from '../../core/domain.ts';

/** A message and the messages it replies to, as its delivery sends them. */
export interface DeliverySubject {
  message: ChatMessage;
  targets: ChatMessage[];
}

/** Where a delivered message landed in its room. */
interface RoomCopy {
  externalIds: string[];
  externalUrl: string | null;
}

/** Messages waiting for their first delivery run, and delivered ones remembered, at most (the oldest go first). */
const REMEMBERED = 512;

function keepAtMost<Key, Value>(map: Map<Key, Value>, size: number): void {
  while (map.size > size) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}

/**
 * What this process just stored for delivery, kept until the message's first delivery run: a first run has no
 * earlier chunk to resume, so the message as stored is the message to send. Its targets are taken as the caller held
 * them when they were settled then (a person's message, a delivered answer), else from what this process delivered
 * since (a room delivers in order, so an earlier answer is out before this one). That run then reads nothing back; a
 * later run, or a target delivered by another process, reads the database as before.
 */
export class PostedMessages {
  private readonly subjects = new Map<number, DeliverySubject>();
  private readonly roomCopies = new Map<number, RoomCopy>();

  /** Keeps `message` for its first delivery. */
  remember(message: ChatMessage, targets: readonly ChatMessage[]): void {
    this.subjects.set(message.id, { message, targets: [...targets] });
    keepAtMost(this.subjects, REMEMBERED);
  }

  /** Notes where a message this process delivered landed (a later answer may reply to it). */
  delivered(messageId: number, copy: RoomCopy): void {
    this.roomCopies.set(messageId, copy);
    keepAtMost(this.roomCopies, REMEMBERED);
  }

  /** The message as stored, once (a second call, a later run, finds nothing); undefined when a target's copy is unknown here. */
  take(messageId: number): DeliverySubject | undefined {
    const subject = this.subjects.get(messageId);
    this.subjects.delete(messageId);
    if (!subject) return undefined;
    const targets: ChatMessage[] = [];
    for (const target of subject.targets) {
      const settled = this.settled(target);
      if (!settled) return undefined;
      targets.push(settled);
    }
    return { message: subject.message, targets };
  }

  /** How many messages wait for their first run. */
  get size(): number {
    return this.subjects.size;
  }

  private settled(target: ChatMessage): ChatMessage | undefined {
    if (target.deliveryStatus !== 'pending') return target;
    const copy = this.roomCopies.get(target.id);
    return copy ? { ...target, deliveryStatus: 'delivered', externalIds: copy.externalIds, externalUrl: copy.externalUrl ?? target.externalUrl } : undefined;
  }
}
