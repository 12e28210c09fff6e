import { describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../../../src/config/app-config.ts';
import type { MessagesRepository } from '../../../../src/repositories/messages-repository.ts';
import { ContextManager } from '../../../../src/services/context/context-manager.ts';
import { TokenCounter } from '../../../../src/services/context/token-counter.ts';
import type { ChatMessage, Session } from '../../../../src/core/domain.ts';
import type { DocumentationPort } from '../../../../src/core/ports.ts';
import { chatMessage } from '../../../support/chat-messages.ts';
import { attributedLine, turnCue } from '../../../../src/agents/participants/conversation-input.ts';

const limits = { contextRefreshPercent: 50, maxContextPercent: 80 } as LimitsConfig;
const speakers = ['Claude', 'ChatGPT', 'Grok', 'Alice'];
const history = (count: number): ChatMessage[] =>
  Array.from({ length: count }, (_, index) =>
    chatMessage({
      id: index + 1,
      speaker: { kind: speakers[index % 4] === 'Alice' ? 'human' : 'participant', name: speakers[index % 4]! },
      text: `Point ${index}: rollout safety versus speed, kill switches for risky paths, and a cleanup policy for old flags.`,
      createdAt: new Date(),
    }),
  );

function manager(messages: ChatMessage[], record: string | null, window = 128_000, tokens = new TokenCounter()) {
  const urgent: string[] = [];
  const documentation: DocumentationPort = {
    latestRecord: async () => record,
    latestTldr: async () => null,
    requestRecord: async (sessionId, options) => {
      if (options.urgent) urgent.push(sessionId);
    },
    refreshRecord: async () => record,
  };
  const context = new ContextManager({
    messages: { listForSession: async () => messages } as unknown as MessagesRepository,
    documentation,
    tokens,
    contextWindow: async () => window,
    limits: () => limits,
    historyBudgetTokens: 4000,
  });
  return { context, urgent };
}

const session = { id: 's' } as Session;
const record = Array.from({ length: 200 }, (_, index) => `- decision ${index}: keep kill switches per risky path`).join('\n');

describe('ContextManager', () => {
  it("counts a message again when it changes, and sizes each turn for the model's correction", async () => {
    const messages = history(8);
    const tokens = new TokenCounter();
    const { context } = manager(messages, null, 128_000, tokens);
    const loaded = { messages, complete: true };
    const before = (await context.build(session, 'Claude', 'm', [], loaded)).estimatedTokens;
    // An edit comes as a new message object with the same id (a round's history is read from the database).
    const edited = messages.map((message) => (message.id === 3 ? { ...message, text: `${message.text} ${'Much longer now. '.repeat(20)}` } : message));
    const after = (await context.build(session, 'Claude', 'm', [], { messages: edited, complete: true })).estimatedTokens;
    expect(after).toBeGreaterThan(before + 60);
    tokens.observe('m', 1000, 2000);
    const corrected = (await context.build(session, 'Claude', 'm', [], { messages: edited, complete: true })).estimatedTokens;
    const lines = edited.map((message) => tokens.countFor('m', attributedLine(message)));
    expect(corrected - 600).toBe(lines.reduce((total, count) => total + count, 0) + tokens.countFor('m', turnCue('Claude', [])));
  });

  it('sends the whole attributed history while it is small', async () => {
    const built = await manager(history(8), null).context.build(session, 'Claude', 'm', []);
    expect(built.compressed).toBe(false);
    expect(JSON.stringify(built.items)).toContain('[Alice (person)]: Point 3');
  });

  it('replaces old history by the record plus recent messages, so the prompt stays bounded and flat', async () => {
    const sizes: number[] = [];
    for (let count = 30; count <= 300; count += 30)
      sizes.push((await manager(history(count), record).context.build(session, 'Claude', 'm', [])).estimatedTokens);
    // Never more than the history budget plus the instruction allowance and the cue, however long it runs.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4000 + 600 + 50);
    const at300 = await manager(history(300), record).context.build(session, 'Claude', 'm', []);
    expect(at300.compressed).toBe(true);
    expect(JSON.stringify(at300.items)).toContain('[Scribe record of the discussion so far]');
    expect(JSON.stringify(at300.items)).toContain('Point 299');
    expect(sizes.at(-1)! / sizes.at(-4)!).toBeLessThanOrEqual(1.1);
  });

  it('asks for an immediate Scribe pass when the history nears the context window', async () => {
    const { context, urgent } = manager(history(300), record, 8000);
    await context.build(session, 'Claude', 'm', []);
    expect(urgent).toEqual(['s']);
  });

  it("applies the plan's context percentage, not only the admin bound", async () => {
    // 120 messages are about 3,000 tokens: under 80% of a 5,000-token window, over the plan's 40%.
    const planned = { id: 's', plan: { parameters: { maxContextPercent: 40 } } } as Session;
    const { context, urgent } = manager(history(120), record, 5000);
    await context.build(session, 'Claude', 'm', []);
    expect(urgent).toEqual([]);
    await context.build(planned, 'Claude', 'm', []);
    expect(urgent).toEqual(['s']);
  });

  it('builds the turn on the record the urgent pass wrote', async () => {
    const state = { record: 'old record' };
    const documentation: DocumentationPort = {
      latestRecord: async () => state.record,
      latestTldr: async () => null,
      requestRecord: async () => {
        await Promise.resolve();
        state.record = 'fresh record from the urgent pass';
      },
      refreshRecord: async () => state.record,
    };
    const messages = { listForSession: async () => history(300) } as unknown as MessagesRepository;
    const context = new ContextManager({
      messages,
      documentation,
      tokens: new TokenCounter(),
      contextWindow: async () => 8000,
      limits: () => limits,
      historyBudgetTokens: 4000,
    });
    expect(JSON.stringify((await context.build(session, 'Claude', 'm', [])).items)).toContain('fresh record from the urgent pass');
  });

  it('!refresh forces the record even for a short history', async () => {
    const { context } = manager(history(4), record);
    context.forceRefresh('s');
    expect((await context.build(session, 'Claude', 'm', [])).compressed).toBe(true);
    expect((await context.build(session, 'Claude', 'm', [])).compressed).toBe(false);
  });

  it('!refresh reaches every participant of the next round, which reads the store of truth once', async () => {
    const { context } = manager(history(4), record);
    const documentation = context['options'].documentation;
    let refreshed = 0;
    const refresh = documentation.refreshRecord.bind(documentation);
    documentation.refreshRecord = (sessionId) => {
      refreshed += 1;
      return refresh(sessionId);
    };
    context.forceRefresh('s');
    const round = { messages: history(4), complete: true };
    const built = await Promise.all(['Claude', 'ChatGPT', 'Grok'].map((name) => context.build(session, name, 'm', [], round)));
    expect(built.map((prompt) => prompt.compressed)).toEqual([true, true, true]);
    expect(refreshed).toBe(1);
    // The round after it reads the history as before.
    expect((await context.build(session, 'Claude', 'm', [], { messages: history(4), complete: true })).compressed).toBe(false);
  });

  it('tells the other processes of a !refresh handled here, and forces the next round for one handled elsewhere without telling again', async () => {
    const told: string[] = [];
    const { context } = manager(history(4), record);
    context['options'].announceRefresh = (sessionId) => void told.push(sessionId);
    context.forceRefresh('s');
    expect(told).toEqual(['s']);
    expect((await context.build(session, 'Claude', 'm', [])).compressed).toBe(true);
    context.refreshedElsewhere('s');
    expect(told).toEqual(['s']);
    expect((await context.build(session, 'Claude', 'm', [])).compressed).toBe(true);
    expect((await context.build(session, 'Claude', 'm', [])).compressed).toBe(false);
  });

  it('builds from a recent window exactly what it builds from the whole history, reading the whole only while it all goes in', async () => {
    const all = history(300);
    let fullReads = 0;
    // A window of 100 messages holds more than the half of the budget the recent part of a compressed prompt takes.
    const build = (context: ContextManager, count: number, windowed: boolean) =>
      context.build(session, 'Claude', 'm', [], windowed ? { messages: all.slice(Math.max(0, count - 100), count), complete: count <= 100 } : undefined);
    const windowedContext = new ContextManager({
      messages: {
        listForSession: async () => {
          fullReads += 1;
          return current;
        },
      } as unknown as MessagesRepository,
      documentation: manager([], record, 8000).context['options'].documentation,
      tokens: new TokenCounter(),
      contextWindow: async () => 8000,
      limits: () => limits,
      historyBudgetTokens: 4000,
    });
    let current: ChatMessage[] = [];
    let readsWhileCompressed = 0;
    for (let count = 10; count <= 300; count += 10) {
      current = all.slice(0, count);
      const before = fullReads;
      const windowed = await build(windowedContext, count, true);
      const whole = await manager(current, record, 8000).context.build(session, 'Claude', 'm', []);
      expect(windowed).toEqual(whole);
      if (whole.compressed) readsWhileCompressed += fullReads - before;
    }
    // Once the record stands in for old history, the window is all a round reads: older sizes are kept.
    expect(readsWhileCompressed).toBe(0);
  });

  it('reads the record once for the participants of a round, again for the next round, and not at all for a failed read', async () => {
    let reads = 0;
    let failNext = false;
    const base = manager(history(300), record).context['options'];
    const context = new ContextManager({
      ...base,
      documentation: {
        ...base.documentation,
        latestRecord: async () => {
          reads += 1;
          if (failNext) {
            failNext = false;
            throw new Error('database unavailable');
          }
          return `- read ${reads}\n${record}`;
        },
      },
    });
    const round = { messages: history(300), complete: true };
    const built = await Promise.all(['Claude', 'ChatGPT', 'Grok'].map((name) => context.build(session, name, 'm', [], round)));
    expect(reads).toBe(1);
    expect(built.every((entry) => JSON.stringify(entry.items).includes('read 1'))).toBe(true);
    const nextRound = { messages: history(300), complete: true };
    failNext = true;
    await expect(context.build(session, 'Claude', 'm', [], nextRound)).rejects.toThrow('database unavailable');
    expect(JSON.stringify((await context.build(session, 'ChatGPT', 'm', [], nextRound)).items)).toContain('read 3');
    await context.build(session, 'Grok', 'm', []);
    expect(reads).toBe(4);
  });
});
