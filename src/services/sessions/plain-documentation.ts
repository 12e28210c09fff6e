import type { DocumentsRepository } from '../../repositories/documents-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { Clock } from '../clock.ts';
import type { DocumentationPort, RecalledSession } from '../ports.ts';
import type { DocumentationHooks } from './session-hooks.ts';
import type { DocumentStorePort } from './tool-ports.ts';

/**
 * Documentation without a model: the "record" is the attributed transcript with plain statistics. It
 * serves the context manager until the Scribe is wired, and tests of the session core.
 */
export class PlainDocumentation implements DocumentationPort, DocumentationHooks, DocumentStorePort {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly documents: DocumentsRepository,
    private readonly clock: Clock,
  ) {}

  async onMessage(_sessionId: string): Promise<void> {}

  async latestRecord(sessionId: string): Promise<string | null> {
    return (await this.documents.find(sessionId, 'record'))?.content ?? null;
  }

  async latestTldr(sessionId: string): Promise<string | null> {
    return (await this.documents.find(sessionId, 'tldr'))?.content ?? null;
  }

  async requestRecord(sessionId: string): Promise<void> {
    const messages = await this.messages.listForSession(sessionId);
    const counts = new Map<string, number>();
    for (const message of messages) counts.set(message.speaker.name, (counts.get(message.speaker.name) ?? 0) + 1);
    const lines = [
      '# Record (statistics only)',
      `Messages: ${messages.length}`,
      ...[...counts.entries()].map(([speaker, count]) => `- ${speaker}: ${count} messages`),
      '',
      '## Timeline',
      ...messages.map((message) => `- #${message.id} [${message.speaker.name}] ${message.text.replace(/\s+/g, ' ').slice(0, 160)}`),
    ];
    await this.documents.write(sessionId, 'record', lines.join('\n'), {}, this.clock.now());
  }

  async refreshRecord(sessionId: string): Promise<string | null> {
    return this.latestRecord(sessionId);
  }

  async write(sessionId: string, kind: 'record' | 'tldr', markdown: string): Promise<void> {
    await this.documents.write(sessionId, kind, markdown, {}, this.clock.now());
  }

  async read(sessionId: string, kind: 'record' | 'tldr'): Promise<string | null> {
    return (await this.documents.find(sessionId, kind))?.content ?? null;
  }

  async recall(): Promise<RecalledSession[]> {
    return [];
  }
}
