/** What the Scribe reads, and the record written without a model when the model fails. */
import type { ChatMessage, Session, Speaker } from '../../core/domain.ts';
import { withoutFileAddresses } from './shared-files.ts';
import { clipText } from '../../core/text-clip.ts';

/** The session facts the Scribe's input names. */
export interface ScribeSubject {
  topic: string;
  objectives: string[];
}

/** The subject a session's record is written about: its planned topic (the person's words before a plan) and objectives. */
export function recordSubject(session: Pick<Session, 'topic' | 'plan'>): ScribeSubject {
  return { topic: session.plan?.expandedTopic ?? session.topic, objectives: session.plan?.objectives ?? [] };
}

/** Messages the record covers: what people and agents said in the room, not withheld or internal ones. */
export function recordable(messages: ChatMessage[]): ChatMessage[] {
  return messages.filter(
    (message) =>
      message.deliveryStatus !== 'withheld' && message.deliveryStatus !== 'internal' && message.speaker.kind !== 'scribe' && message.speaker.kind !== 'tldr',
  );
}

/** A speaker as the agents read them: a person is marked as such (`Ana (person)`), so no model takes them for a peer. */
export function speakerLabel(speaker: Pick<Speaker, 'kind' | 'name'>): string {
  return speaker.kind === 'human' ? `${speaker.name} (person)` : speaker.name;
}

/** One message as the Scribe reads it: `#12 [Claude]: text`, so findings can cite it (and the web pages it drew on). */
export function citedLine(message: Pick<ChatMessage, 'id' | 'number' | 'speaker' | 'text' | 'citations'>): string {
  const name = speakerLabel(message.speaker);
  const sources = (message.citations ?? []).map((citation) => `${citation.title} <${citation.url}>`);
  return `#${message.number} [${name}]: ${withoutFileAddresses(message.text)}${sources.length > 0 ? ` (web sources: ${sources.join('; ')})` : ''}`;
}

/** A person's message they edited or deleted after the record took it in. */
export type ScribeCorrection = Pick<ChatMessage, 'number' | 'speaker' | 'text' | 'deleted'>;

/**
 * The user message of a Scribe pass: the subject, the previous record (if any, and whether people edited it in
 * Notion), what people corrected in messages it already holds (edited or deleted by their authors), and the new messages.
 */
export function buildScribeInput(
  subject: ScribeSubject,
  previousRecord: string | null,
  messages: Pick<ChatMessage, 'id' | 'number' | 'speaker' | 'text' | 'citations'>[],
  corrections: ScribeCorrection[] = [],
  options: { editedByPeople?: boolean } = {},
): string {
  const objectives = subject.objectives.length > 0 ? subject.objectives.map((objective) => `- ${objective}`).join('\n') : '- (no plan yet)';
  const kept = corrections.length > 0 ? 'keep everything in it, except what the corrections below take back' : 'keep everything in it';
  // People's own words in the record are theirs: the Scribe works the new messages in around them.
  const keep = options.editedByPeople ? `${kept}; people edited it in Notion, so keep their wording and additions as they wrote them` : kept;
  return [
    `Topic: ${subject.topic}`,
    `Objectives:\n${objectives}`,
    previousRecord ? `Previous record (${keep}):\n${previousRecord}` : 'There is no previous record: write the first one.',
    ...(corrections.length > 0 ? [correctionsSection(corrections)] : []),
    messages.length > 0 ? `New messages (oldest first):\n${messages.map(citedLine).join('\n')}` : 'No new messages.',
    'Write the complete updated record now.',
  ].join('\n\n');
}

function correctionsSection(corrections: ScribeCorrection[]): string {
  const lines = corrections.map((correction) =>
    correction.deleted
      ? `- #${correction.number} [${correction.speaker.name} (person)] was deleted by its author: remove from the record whatever it took only from #${correction.number}, and its citation.`
      : `- #${correction.number} [${correction.speaker.name} (person)] was edited by its author; it now says: ${withoutFileAddresses(correction.text)}`,
  );
  return `Corrections by their authors (the record must say what people now say, and nothing they deleted):\n${lines.join('\n')}`;
}

function excerpt(text: string, length = 280): string {
  const flat = withoutFileAddresses(text).replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${clipText(flat, length - 1)}…` : flat;
}

/** The record written when the model fails: plain statistics (participants, message counts, timeline). */
export function fallbackRecord(
  subject: ScribeSubject,
  messages: Pick<ChatMessage, 'id' | 'number' | 'speaker' | 'text' | 'createdAt'>[],
  note: string,
): string {
  const counts = new Map<string, number>();
  for (const message of messages) counts.set(message.speaker.name, (counts.get(message.speaker.name) ?? 0) + 1);
  const first = messages[0]?.createdAt;
  const last = messages.at(-1)?.createdAt;
  return [
    '# Detailed record (statistics only)',
    '',
    `> ${note}`,
    '',
    '## Topic and objectives',
    subject.topic,
    ...subject.objectives.map((objective) => `- ${objective}`),
    '',
    '## Participants',
    ...[...counts.entries()].map(([name, count]) => `- ${name}: ${count} message${count === 1 ? '' : 's'}`),
    '',
    '## Statistics',
    `- Messages: ${messages.length}`,
    first && last ? `- From ${first.toISOString()} to ${last.toISOString()}` : '- No messages yet',
    '',
    '## Timeline',
    ...messages.map((message) => `- ${message.createdAt.toISOString().slice(11, 19)} #${message.number} [${message.speaker.name}]: ${excerpt(message.text)}`),
  ].join('\n');
}

/**
 * Adds what a model's record left out: a section quoting each speaker the record never names, so the record
 * always holds a point from every participant (the context manager relies on it).
 */
export function ensureEveryVoice(record: string, messages: Pick<ChatMessage, 'id' | 'number' | 'speaker' | 'text'>[]): string {
  const missing = [...new Set(messages.filter((message) => message.speaker.kind !== 'system').map((message) => message.speaker.name))].filter(
    (name) => !record.includes(name),
  );
  if (missing.length === 0) return record;
  const lines = missing.flatMap((name) =>
    messages
      .filter((message) => message.speaker.name === name)
      .slice(-3)
      .map((message) => `- ${name} (#${message.number}): ${excerpt(message.text)}`),
  );
  return `${record.trimEnd()}\n\n## Further points (not yet woven into the record)\n${lines.join('\n')}\n`;
}
