/** A session as a file a person keeps: its transcript, plan and documents, in markdown or JSON. */
import type { SessionDetail, TranscriptMessage } from './console-types.ts';

/** What an export holds. */
export interface SessionExport {
  session: SessionDetail['session'];
  messages: TranscriptMessage[];
  record: string | null;
  tldr: string | null;
  exportedAt: string;
}

function planMarkdown(plan: NonNullable<SessionDetail['session']['plan']>): string {
  const list = (items: string[]) => items.map((item) => `- ${item}`).join('\n');
  return [
    `## Plan`,
    plan.expandedTopic,
    `### Objectives\n${list(plan.objectives)}`,
    `### Key areas\n${list(plan.keyAreas)}`,
    `### Expected flow\n${list(plan.expectedFlow)}`,
  ].join('\n\n');
}

function messageMarkdown(message: TranscriptMessage): string {
  const model = message.model ? ` (${message.model})` : '';
  const sources = (message.citations ?? []).map((citation) => `- [${citation.title.replace(/[[\]]/g, '')}](<${citation.url}>)`);
  const text = sources.length > 0 ? `${message.text.trim()}\n\nSources:\n${sources.join('\n')}` : message.text.trim();
  return `### #${message.number} ${message.speaker.name}${model} — ${message.createdAt}\n\n${text}`;
}

/** The export as markdown: heading, plan, every message in order with its number, then the TLDR and record. */
export function exportMarkdown(data: SessionExport): string {
  const session = data.session;
  const parts = [`# ${session.topic}`, `Status: ${session.status} · ${data.messages.length} messages · exported ${data.exportedAt}`];
  if (session.plan) parts.push(planMarkdown(session.plan));
  parts.push('## Transcript', ...data.messages.map(messageMarkdown));
  if (data.tldr) parts.push('## TLDR', data.tldr.trim());
  if (data.record) parts.push('## Detailed record', data.record.trim());
  return `${parts.join('\n\n')}\n`;
}

/** A file name for an export, from the topic (letters, digits and dashes only). */
export function exportFileName(topic: string, extension: 'md' | 'json'): string {
  const slug =
    topic
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'session';
  return `brainstorm-${slug}.${extension}`;
}
