import type { ParticipantConfig } from '../../config/roster.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import { addressedNames } from './addressing.ts';
import { selectSpeakers } from './speaker-selection.ts';

/** At most this many earlier messages are referenced by one answer. */
export const MAX_REPLY_REFERENCES = 5;
const DISCUSSION = new Set(['human', 'participant', 'moderator']);

/** One speaker of a round and the messages it answers. */
export interface PlannedSpeaker {
  participant: ParticipantConfig;
  answering: ChatMessage[];
}

/** Who speaks in the next round, and to what. */
export interface RoundPlan {
  kind: 'human' | 'ai';
  trigger: string;
  speakers: PlannedSpeaker[];
}

/**
 * Plans a round. After a person's message every active participant may answer (fairly chosen, at most
 * `maxSpeakers`), or only those the person named; in an AI round only those with something new from others to answer. Each answers the
 * messages it was not part of since it last spoke (at most 5, those within the batch window of the newest).
 */
export function planRound(input: {
  session: Session;
  participants: ParticipantConfig[];
  history: ChatMessage[];
  humans: ChatMessage[];
  maxSpeakers: number;
  batchWindowMs: number;
  /** Names the Moderator invited in (they speak first) and asked to hold (they sit this round out). */
  invited?: string[];
  /** Each participant's message count and latest id in the whole session, when `history` is only its recent part. */
  spoken?: ReadonlyMap<string, { count: number; lastId: number }>;
  held?: string[];
}): RoundPlan {
  const discussion = input.history.filter((message) => DISCUSSION.has(message.speaker.kind) && message.deliveryStatus !== 'withheld');
  const unseenBy = new Map(input.participants.map((participant) => [participant.id, unseenMessages(participant, discussion, input.batchWindowMs)]));
  const invited = new Set(input.invited ?? []);
  const held = new Set(input.held ?? []);
  const eligible = (
    input.humans.length > 0
      ? addressedOrAll(input.participants, input.humans)
      : input.participants.filter((participant) => (unseenBy.get(participant.id) ?? []).length > 0 || invited.has(participant.name))
  ).filter((participant) => !held.has(participant.name) || input.participants.length === 1);
  const candidates = eligible.map((participant) => {
    const own = discussion.filter((message) => message.speaker.kind === 'participant' && message.speaker.name === participant.name);
    const spoken = input.spoken ? (input.spoken.get(participant.name) ?? { count: 0, lastId: 0 }) : { count: own.length, lastId: own.at(-1)?.id ?? 0 };
    // An invited participant goes to the front of the queue for this round.
    return { id: participant.id, spokenCount: invited.has(participant.name) ? -1 : spoken.count, lastMessageId: spoken.lastId };
  });
  const chosen = selectSpeakers(candidates, input.maxSpeakers, input.session.messageCount);
  const speakers = chosen.map((id) => {
    const participant = input.participants.find((entry) => entry.id === id) as ParticipantConfig;
    const unseen = unseenBy.get(id) ?? [];
    const answering = input.humans.length > 0 ? replyReferences(mergeById(unseen, input.humans)) : unseen;
    return { participant, answering };
  });
  const trigger = input.humans.length > 0 ? input.humans.map((message) => message.speaker.name).join(', ') : 'each other';
  return { kind: input.humans.length > 0 ? 'human' : 'ai', trigger, speakers };
}

/**
 * The participants people named ("Grok, …", "@Claude") or answered directly (a reply to one of theirs); everyone who can answer when a message of the turn named
 * nobody of them (it is for the room).
 */
function addressedOrAll(participants: ParticipantConfig[], humans: ChatMessage[]): ParticipantConfig[] {
  const names = participants.map((participant) => participant.name);
  const perMessage = humans.map((message) => [...addressedNames(message.text, names), ...(message.addressedTo ?? []).filter((name) => names.includes(name))]);
  if (perMessage.some((addressed) => addressed.length === 0)) return participants;
  const addressed = new Set(perMessage.flat());
  return participants.filter((participant) => addressed.has(participant.name));
}

/**
 * What a participant has not answered yet. Its last answer saw everything up to the newest message it
 * replied to — not up to its own id: answers written in parallel in the same round were not seen.
 */
function unseenMessages(participant: ParticipantConfig, discussion: ChatMessage[], batchWindowMs: number): ChatMessage[] {
  const lastOwn = discussion.findLast((message) => message.speaker.kind === 'participant' && message.speaker.name === participant.name);
  const seenUpTo = lastOwn ? Math.max(0, ...lastOwn.replyTo) : 0;
  const since = discussion.filter((message) => message.id > seenUpTo && message.speaker.name !== participant.name);
  const newest = since.at(-1);
  if (!newest) return [];
  const windowStart = newest.createdAt.getTime() - batchWindowMs;
  return replyReferences(since.filter((message) => message.createdAt.getTime() >= windowStart));
}

/**
 * The messages (in id order) an answer refers to, at most MAX_REPLY_REFERENCES: the newest always (a participant's
 * answer has seen up to its newest reference), then people's messages before the others, newest first, so a burst of
 * answers written meanwhile never crowds out what a person said.
 */
export function replyReferences(messages: ChatMessage[]): ChatMessage[] {
  if (messages.length <= MAX_REPLY_REFERENCES) return messages;
  const older = messages.slice(0, -1).reverse();
  const byPeople = older.filter((message) => message.speaker.kind === 'human');
  const others = older.filter((message) => message.speaker.kind !== 'human');
  return [...messages.slice(-1), ...byPeople, ...others].slice(0, MAX_REPLY_REFERENCES).sort((first, second) => first.id - second.id);
}

function mergeById(first: ChatMessage[], second: ChatMessage[]): ChatMessage[] {
  const byId = new Map([...first, ...second].map((message) => [message.id, message]));
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
