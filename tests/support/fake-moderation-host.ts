import { renderTldrMarkdown } from '../../src/agents/tldr/tldr-text.ts';
import type { ChatMessage, ModerationState, Session, SessionPlan } from '../../src/core/domain.ts';
import type { ModerationHost } from '../../src/services/moderation/moderation-host.ts';
import type { LimitsReport, RoomPostExtras, ToolPorts } from '../../src/core/ports.ts';
import { chatMessage } from './chat-messages.ts';

/** A plan about caching. */
export const PLAN: SessionPlan = {
  expandedTopic: 'How to cache API responses in a web service to cut latency',
  objectives: ['Pick a caching layer for API responses', 'Agree on cache invalidation rules'],
  keyAreas: ['cache layer', 'invalidation', 'latency'],
  expectedFlow: ['options', 'trade-offs', 'decision'],
  parameters: { maxMessages: 100, maxTokens: 100_000, maxCostUsd: 1, timeoutMinutes: 30, maxContextPercent: 70 },
  estimate: { durationMinutes: 10, costUsd: 0.1, messages: 40 },
  critiqueRound: false,
};

/** An in-memory host recording everything the service does. */
export class FakeHost implements ModerationHost {
  session: Session;
  messages: ChatMessage[] = [];
  posts: string[] = [];
  /** The labels of each post's command buttons, by post (through either path). */
  postButtons: string[][] = [];
  /** How each post came: the Moderator's tool (`tool`) or the service's own post (`service`). */
  postPaths: ('tool' | 'service')[] = [];
  ended: { status: string; reason: string }[] = [];
  documents: { kind: string; markdown: string }[] = [];
  invited: string[] = [];
  participants = ['Claude', 'ChatGPT', 'Grok'];
  onEnd: ((reason: string) => Promise<void>) | null = null;

  constructor() {
    const now = new Date('2026-01-01T00:00:00Z');
    this.session = {
      id: 'session-1',
      parentId: null,
      transport: 'memory',
      roomId: 'room',
      roomUrl: null,
      originChannelId: null,
      topic: 'caching',
      status: 'active',
      createdBy: { id: 'u', name: 'Ada' },
      plan: PLAN,
      plannerState: { questions: [], answers: [], revisionRequests: [], questionRounds: 1 },
      moderationState: { driftWarnings: 0, lastCheckAtMessage: 0 },
      disabledParticipants: [],
      messageCount: 0,
      totalTokens: 0,
      totalCostUsd: 0,
      aiRoundsSinceHuman: 0,
      endReason: null,
      createdAt: now,
      updatedAt: now,
      startedAt: now,
      endedAt: null,
      clockStartedAt: now,
      pausedAt: null,
      ledgerPasses: 0,
    };
  }

  /** Adds messages said by `speakers` in turn. */
  say(texts: string[], speakers: string[] = this.participants): void {
    texts.forEach((text, index) => {
      const id = this.messages.length + 1;
      const name = speakers[index % speakers.length] ?? 'Claude';
      this.messages.push(chatMessage({ id, sessionId: this.session.id, speaker: { kind: 'participant', name }, text, createdAt: new Date() }));
    });
    this.session = { ...this.session, messageCount: this.messages.length };
  }

  async getSession(): Promise<Session> {
    return this.session;
  }
  async recentMessages(_sessionId: string, limit: number): Promise<ChatMessage[]> {
    return this.messages.slice(-limit);
  }
  async postAsModerator(_session: Session, content: string, extras?: RoomPostExtras): Promise<void> {
    this.record(content, 'service', extras);
  }
  private record(content: string, path: 'tool' | 'service', extras?: RoomPostExtras): void {
    this.posts.push(content);
    this.postPaths.push(path);
    this.postButtons.push((extras?.buttons ?? []).map((button) => button.label));
  }
  async saveModerationState(_sessionId: string, state: ModerationState): Promise<void> {
    this.session = { ...this.session, moderationState: state };
  }
  async endSession(_sessionId: string, status: 'completed' | 'stopped', reason: string): Promise<void> {
    this.ended.push({ status, reason });
    this.session = { ...this.session, status };
    await this.onEnd?.(reason);
  }
  async limitsReport(): Promise<LimitsReport> {
    const counts = new Map<string, number>();
    for (const message of this.messages) counts.set(message.speaker.name, (counts.get(message.speaker.name) ?? 0) + 1);
    return {
      messages: { used: this.messages.length, limit: 100 },
      tokens: { used: 0, limit: 100_000 },
      costUsd: { used: 0, limit: 1 },
      minutes: { used: 1, limit: 30 },
      contextPercent: { used: 10, limit: 70 },
      balance: [...counts].map(([speaker, messages]) => ({ speaker, messages })),
      exceeded: [],
    };
  }
  toolPorts(): ToolPorts {
    return {
      sessionId: this.session.id,
      postToRoom: async (_speaker, content, extras) => this.record(content, 'tool', extras),
      checkLimits: () => this.limitsReport(),
      startSession: async () => undefined,
      endSession: async (reason) => this.endSession(this.session.id, 'completed', reason),
      writeDocument: async (kind, markdown) => void this.documents.push({ kind, markdown }),
      writeSummary: async (summary) => void this.documents.push({ kind: 'tldr', markdown: renderTldrMarkdown(summary) }),
      readDocument: async (kind) => this.documents.filter((document) => document.kind === kind).at(-1)?.markdown ?? null,
      recallSessions: async () => [],
    };
  }
  participantNames(): string[] {
    return this.participants;
  }
  async documentLinks() {
    return [
      { label: 'Detailed record', url: 'https://notion.test/record' },
      { label: 'TLDR', url: 'https://notion.test/tldr' },
    ];
  }
  inviteSpeaker(_sessionId: string, name: string): void {
    this.invited.push(name);
  }
}
