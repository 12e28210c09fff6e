import { describe, expect, it } from 'vitest';
import type { ParticipantConfig } from '../../../../src/config/roster.ts';
import { planRound } from '../../../../src/services/coordinator/round-planning.ts';
import type { ChatMessage, Session, SpeakerKind } from '../../../../src/core/domain.ts';

const participant = (name: string): ParticipantConfig => ({
  id: name.toLowerCase(),
  name,
  model: 'm',
  baseUrl: 'http://x',
  apiKeyVariable: 'K',
  apiKey: undefined,
  dialect: 'openrouter',
  simulated: true,
  persona: 'p',
  avatarUrl: undefined,
  temperature: 0.5,
  contextWindow: undefined,
  enabled: true,
});
const roster = ['Claude', 'ChatGPT', 'Grok'].map(participant);
const session = { messageCount: 0 } as Session;
let nextId = 0;
const message = (name: string, kind: SpeakerKind, replyTo: number[] = [], seconds = 0): ChatMessage => {
  nextId += 1;
  return {
    id: nextId,
    number: nextId,
    sessionId: 's',
    speaker: { kind, name },
    role: kind === 'participant' ? 'assistant' : 'user',
    text: `${name} ${nextId}`,
    model: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    replyTo,
    traceId: null,
    deliveryStatus: 'delivered',
    externalIds: [],
    externalUrl: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)),
  };
};

describe('planRound', () => {
  it('lets only the participants a person named answer them, and everyone when a message of the turn names nobody', () => {
    nextId = 0;
    const toGrok = { ...message('Alice', 'human'), text: 'Grok, what would you cut first?' };
    const plan = (humans: ChatMessage[], participants = roster) =>
      planRound({ session, participants, history: humans, humans, maxSpeakers: 3, batchWindowMs: 60_000 }).speakers.map((speaker) => speaker.participant.name);
    expect(plan([toGrok])).toEqual(['Grok']);
    expect(plan([toGrok, { ...message('Bob', 'human'), text: 'And everyone else?' }]).sort()).toEqual(['ChatGPT', 'Claude', 'Grok']);
    // Grok cannot answer now (busy, or turned off): the others do rather than nobody.
    expect(plan([toGrok], roster.slice(0, 2)).sort()).toEqual(['ChatGPT', 'Claude']);
  });

  it('lets every participant answer a person, up to the seats, replying to the person', () => {
    nextId = 0;
    const topic = message('Alice', 'human');
    const round = planRound({ session, participants: roster, history: [topic], humans: [topic], maxSpeakers: 2, batchWindowMs: 60_000 });
    expect(round.kind).toBe('human');
    expect(round.speakers).toHaveLength(2);
    for (const speaker of round.speakers) expect(speaker.answering.map((entry) => entry.id)).toContain(topic.id);
  });

  it('with only the recent window at hand, chooses by what each said in the whole session', () => {
    const topic = message('Ann', 'human');
    // In the window Claude said nothing; over the whole session it said the most, so the seats go to the others.
    const spoken = new Map([
      ['Claude', { count: 40, lastId: 90 }],
      ['ChatGPT', { count: 10, lastId: 80 }],
    ]);
    const round = planRound({ session, participants: roster, history: [topic], humans: [topic], maxSpeakers: 2, batchWindowMs: 60_000, spoken });
    expect(round.speakers.map((speaker) => speaker.participant.name)).toEqual(['Grok', 'ChatGPT']);
  });

  it('in an AI round, each answers what it has not seen — including answers written in parallel with its own', () => {
    nextId = 0;
    const topic = message('Alice', 'human');
    const claude = message('Claude', 'participant', [topic.id]);
    const grok = message('Grok', 'participant', [topic.id]);
    const chatgpt = message('ChatGPT', 'participant', [topic.id]);
    const round = planRound({ session, participants: roster, history: [topic, claude, grok, chatgpt], humans: [], maxSpeakers: 3, batchWindowMs: 60_000 });
    expect(round.kind).toBe('ai');
    const byName = Object.fromEntries(round.speakers.map((speaker) => [speaker.participant.name, speaker.answering.map((entry) => entry.speaker.name)]));
    expect(byName.ChatGPT).toEqual(['Claude', 'Grok']);
    expect(byName.Claude).toEqual(['Grok', 'ChatGPT']);
  });

  it('leaves out a participant with nothing new to answer in an AI round', () => {
    nextId = 0;
    const topic = message('Alice', 'human');
    const claude = message('Claude', 'participant', [topic.id]);
    const round = planRound({ session, participants: [participant('Claude')], history: [topic, claude], humans: [], maxSpeakers: 3, batchWindowMs: 60_000 });
    expect(round.speakers).toEqual([]);
  });

  it('references at most 5 messages, only those within the batch window of the newest', () => {
    nextId = 0;
    const history = [message('Alice', 'human', [], 0), ...Array.from({ length: 7 }, (_, index) => message('Bob', 'human', [], 100 + index))];
    const round = planRound({ session, participants: [participant('Claude')], history, humans: [], maxSpeakers: 1, batchWindowMs: 10_000 });
    const answering = round.speakers[0]!.answering;
    expect(answering).toHaveLength(5);
    expect(answering.every((entry) => entry.speaker.name === 'Bob')).toBe(true);
  });

  it("keeps a person's messages among the 5 references before answers written meanwhile, and the newest message always", () => {
    nextId = 0;
    const topic = message('Bob', 'human');
    const claude = message('Claude', 'participant', [topic.id]);
    // Bob kept typing while the others answered his first message; ChatGPT's last answer saw only that one.
    const second = message('Bob', 'human');
    const grok = message('Grok', 'participant', [topic.id]);
    const third = message('Bob', 'human');
    const chatgpt = message('ChatGPT', 'participant', [topic.id]);
    const fourth = message('Bob', 'human');
    const fifth = message('Bob', 'human');
    const sixth = message('Bob', 'human');
    const history = [topic, claude, second, grok, third, chatgpt, fourth, fifth, sixth];
    const round = planRound({ session, participants: [participant('ChatGPT')], history, humans: [sixth], maxSpeakers: 1, batchWindowMs: 60_000 });
    expect(round.speakers[0]?.answering.map((entry) => entry.id)).toEqual([second.id, third.id, fourth.id, fifth.id, sixth.id]);
    const afterAnswers = [...history, message('Claude', 'participant', [sixth.id])];
    const aiRound = planRound({ session, participants: [participant('ChatGPT')], history: afterAnswers, humans: [], maxSpeakers: 1, batchWindowMs: 60_000 });
    // The newest stays (what an answer has seen is measured by it), then the people's newest messages.
    expect(aiRound.speakers[0]?.answering.map((entry) => entry.speaker.name)).toEqual(['Bob', 'Bob', 'Bob', 'Bob', 'Claude']);
    expect(aiRound.speakers[0]?.answering.at(-1)?.id).toBe(afterAnswers.at(-1)?.id);
  });

  it('puts an invited participant first and sits a held one out', () => {
    nextId = 0;
    const topic = message('Alice', 'human');
    const round = planRound({
      session,
      participants: roster,
      history: [topic],
      humans: [topic],
      maxSpeakers: 2,
      batchWindowMs: 60_000,
      invited: ['Grok'],
      held: ['Claude'],
    });
    const names = round.speakers.map((speaker) => speaker.participant.name);
    expect(names[0]).toBe('Grok');
    expect(names).not.toContain('Claude');
  });
});
