/** The Moderator's checks as tests script them on the fake OpenRouter: verdicts, and answers that make a check ask its model. */
import { replies, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import type { SimulatedReply } from '../../src/simulator/index.ts';

/** A verdict that lets the discussion go on, with `overrides`; `latencyMs`, when given, is how long the model takes. */
export function scriptedVerdict(overrides: Record<string, unknown> = {}, latencyMs?: number): SimulatedReply {
  const reply = replies.json({
    action: 'continue',
    drifting: false,
    objectivesMet: false,
    message: '',
    target: '',
    reason: 'scripted',
    quality: 5,
    ...overrides,
  });
  return latencyMs === undefined ? reply : { ...reply, timing: { latencyMs } };
}

/** Off-topic answers from every participant (four each): the Moderator's next check asks its model. */
export function scriptOffTopicAnswers(fake: FakeOpenRouter): void {
  for (const name of ['Claude', 'ChatGPT', 'Grok']) {
    fake.script({ participant: name }, ...Array.from({ length: 4 }, (_, index) => replies.text(`Did you see the football final? Goal ${index} was great.`)));
  }
}
