import type { ChatMessage } from '../../core/domain.ts';

/** A message and the messages it replies to, as its delivery sends them. */
export interface DeliverySubject {
  message: ChatMessage;
  targets: ChatMessage[];
}

/**
 * Messages waiting for their first delivery run, and delivered ones remembered, at most (the oldest go first). Enough
 * for a wave of answers in 500 busy sessions: at 512, 1,073 of 3,000 deliveries under the 500-session load read their
 * message back (it or a target forgotten); at 4,096, 16 (scratch script). A few MB at most, for a bot that busy.
 */
export const REMEMBERED = 4096;

/** Forgets the oldest entries past `size`; returns what it forgot. */
function keepAtMost<Key, Value>(map: Map<Key, Value>, size: number): Value[] {
  const forgotten: Value[] = [];
  for (const [key, value] of map) {
    if (map.size <= size) break;
    map.delete(key);
    forgotten.push(value);
  }
  return forgotten;
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
  private readonly deliveredHere = new Map<number, ChatMessage>();
  private readonly waitingBySession = new Map<string, number>();

  /** Keeps `message` for its first delivery. */
  remember(message: ChatMessage, targets: readonly ChatMessage[]): void {
    this.subjects.set(message.id, { message, targets: [...targets] });
    this.count(message.sessionId, 1);
    for (const forgotten of keepAtMost(this.subjects, REMEMBERED)) this.count(forgotten.message.sessionId, -1);
  }

  /** True while a message this process stored in the session waits for its first delivery run. */
  waiting(sessionId: string): boolean {
    return this.waitingBySession.has(sessionId);
  }

  /** Notes a message this process delivered, as the room shows it now (a later answer may reply to it). */
  delivered(message: ChatMessage): void {
    this.deliveredHere.set(message.id, message);
    keepAtMost(this.deliveredHere, REMEMBERED);
  }

  /** The message as stored, once (a second call, a later run, finds nothing); undefined when a target's copy is unknown here. */
  take(messageId: number): DeliverySubject | undefined {
    const subject = this.subjects.get(messageId);
    if (!subject) return undefined;
    this.subjects.delete(messageId);
    this.count(subject.message.sessionId, -1);
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

  private count(sessionId: string, change: 1 | -1): void {
    const count = (this.waitingBySession.get(sessionId) ?? 0) + change;
    if (count > 0) this.waitingBySession.set(sessionId, count);
    else this.waitingBySession.delete(sessionId);
  }

  private settled(target: ChatMessage): ChatMessage | undefined {
    return target.deliveryStatus === 'pending' ? this.deliveredHere.get(target.id) : target;
  }
}
