/**
 * People's messages a round read before they were handed to the coordinator. A person's message reaches the rounds
 * only after its store: at once here, at the owner's next pass (up to a second) when another process stored it. A round
 * seated meanwhile reads it in its history, and its participants answer it (it is among what they reply to); handed
 * afterwards, it started a round of its own, and each of them answered the person twice.
 */
import type { ChatMessage } from '../../core/domain.ts';

/** People's messages read ahead, by id, with the participants seated in the rounds that read them. */
export type ReadAhead = Map<number, ReadonlySet<string>>;

/**
 * How many messages a session keeps noted (the oldest forgotten first). A message a round read after it was handed
 * (its own answers still being written, or all of them failed) is noted too and never taken: the cap bounds those.
 */
const KEPT_NOTES = 32;

/**
 * How far back in a round's history people's messages are looked for: one read ahead was stored just before the round
 * was seated, a moment before it was handed over. One further back is not noted, and is answered again if handed
 * (as before these notes), never left out. Its answers come after it, so they are within the same stretch.
 */
const LOOKED_AT = 24;

/**
 * Notes the people's messages of a seated round's `history` that no stored answer replies to yet, other than the ones
 * the round answers (`humans`) and those said before `since` (the discussion's start, ms), as read by its
 * `speakerIds`. Returns how many it noted: a round that read a person's message answers that person, and counts as
 * such for the loop guard.
 */
export function noteReadAhead(
  readAhead: ReadAhead,
  history: readonly ChatMessage[],
  humans: readonly ChatMessage[],
  speakerIds: readonly string[],
  since: number,
): number {
  const recent = history.slice(-LOOKED_AT);
  const replied = new Set<number>();
  for (const message of recent) {
    if ((message.speaker.kind === 'participant' && !message.interrupted) || message.speaker.kind === 'system')
      for (const id of message.replyTo) replied.add(id);
  }
  const answering = new Set(humans.map((message) => message.id));
  let noted = 0;
  for (const message of recent) {
    // What people said before the discussion began (the topic, answers to the Planner) is no one's to answer now.
    if (message.speaker.kind !== 'human' || message.createdAt.getTime() < since || replied.has(message.id) || answering.has(message.id)) continue;
    const readers = new Set([...(readAhead.get(message.id) ?? []), ...speakerIds]);
    // Noted again, it is the newest: the cap forgets the others first.
    readAhead.delete(message.id);
    readAhead.set(message.id, readers);
    noted += 1;
  }
  for (const oldest of readAhead.keys()) {
    if (readAhead.size <= KEPT_NOTES) break;
    readAhead.delete(oldest);
  }
  return noted;
}

/** Whether a person waits for an answer among `pending`: a message no round read ahead. */
export function anyUnread(readAhead: ReadAhead, pending: readonly ChatMessage[]): boolean {
  return pending.some((message) => !readAhead.has(message.id));
}

/** The people a round answers, and (when all of them were read ahead) the participants it may seat. */
export interface PeopleToAnswer {
  humans: ChatMessage[];
  /** Who may answer: those who did not read every one of `humans` yet. Absent: anyone. */
  only?: ReadonlySet<string>;
  /** People were taken, and rounds that read them ahead answered them all (the room is not waiting for a person). */
  answeredAhead?: boolean;
}

/**
 * The people's messages taken from the queue, less what rounds read ahead. Messages nobody read are answered as usual,
 * the others being in the history those answers read (their notes are spent). When every one was read ahead, the
 * participants who did not read them all answer them (the notes kept until that round is seated), unless those who did
 * fill a round (`maxSpeakers`): then the people were answered, and nothing is left to do.
 */
export function peopleToAnswer(readAhead: ReadAhead, taken: ChatMessage[], participantIds: readonly string[], maxSpeakers: number): PeopleToAnswer {
  const unread = taken.filter((message) => !readAhead.has(message.id));
  const reads = taken.map((message) => readAhead.get(message.id)).filter((read) => read !== undefined);
  const spend = () => taken.forEach((message) => readAhead.delete(message.id));
  if (unread.length > 0 || reads.length === 0) {
    spend();
    return { humans: unread };
  }
  // Who read every one of them: anyone who missed one still owes that person an answer.
  const readAll = (id: string) => reads.every((read) => read.has(id));
  const only = new Set(participantIds.filter((id) => !readAll(id)));
  if (only.size === 0 || participantIds.length - only.size >= maxSpeakers) {
    spend();
    return { humans: [], answeredAhead: true };
  }
  // Kept until a round is seated for them (see `noteSeatedRound`): queued again, they are still known as read.
  return { humans: taken, only };
}

/**
 * What a seated round read: the newest message id (`seenUpTo`: a folded message newer than it was not read) and the
 * people's messages it read ahead (see `noteReadAhead`, whose count it returns). The notes of the people it
 * answers are spent.
 */
export function noteSeatedRound(
  runtime: { readAhead: ReadAhead; seenUpTo: number },
  session: { startedAt: Date | null },
  history: readonly ChatMessage[],
  humans: readonly ChatMessage[],
  speakers: readonly { participant: { id: string } }[],
): number {
  runtime.seenUpTo = history.reduce((newest, message) => Math.max(newest, message.id), runtime.seenUpTo);
  for (const message of humans) runtime.readAhead.delete(message.id);
  return noteReadAhead(
    runtime.readAhead,
    history,
    humans,
    speakers.map((speaker) => speaker.participant.id),
    session.startedAt?.getTime() ?? 0,
  );
}
