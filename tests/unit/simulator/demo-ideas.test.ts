import { OpenAIChatCompletionsModel, run } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdeaExtractorAgent, ideaExtractionSchema } from '../../../src/agents/ideas/idea-extractor-agent.ts';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';
import type { Idea } from '../../../src/core/idea-ledger.ts';
import { extractionInput } from '../../../src/services/ideas/ledger-runs.ts';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/index.ts';
import { chatMessage } from '../../support/chat-messages.ts';

let simulator: SimulatorHandle;
beforeAll(async () => {
  simulator = await startSimulator();
});
afterAll(async () => simulator.close());

const participant = (number: number, name: string, text: string) =>
  chatMessage({ id: number, number, speaker: { kind: 'participant', name }, text: `${text} — ${name} (simulated)` });

const person = (number: number, text: string) => chatMessage({ id: number, number, speaker: { kind: 'human', name: 'Ana', id: 'ana' }, text });

const messages = [
  participant(3, 'Claude', 'Agreeing with Ana on the direction, with one caveat: "offline" needs an owner and a review date, or it quietly becomes permanent.'),
  participant(4, 'ChatGPT', 'Concretely, Claude: (1) try "offline" with one small team, (2) measure it for two weeks, (3) decide.'),
  participant(
    5,
    'Grok',
    'Devil\'s advocate, ChatGPT: what if "offline" is the wrong frame for mobile app entirely? Cheapest test: skip it for a month and see who notices.',
  ),
  person(6, 'What about syncing drafts only on wifi?'),
  participant(7, 'Claude', 'I see a trade-off in "drafts", Ana: it buys speed on mobile app at the cost of more moving parts.'),
];

describe("the demo Idea Extractor, through the real SDK and the app's own input", () => {
  it('records the ideas people say and answers quote, who built on and who objected, the disagreement and the open question; nothing invented', async () => {
    const client = new OpenAI({ baseURL: simulator.url, apiKey: 'sk-demo', maxRetries: 0 });
    const agent = createIdeaExtractorAgent({ model: new OpenAIChatCompletionsModel(client, 'openai/gpt-4o-mini'), prompts: new PromptLibrary() });
    const extract = async (known: Idea[], batch: typeof messages) =>
      ideaExtractionSchema.parse((await run(agent, extractionInput('Offline mode for the mobile app', known, batch))).finalOutput);

    const first = await extract([], messages);
    expect(first.ideas.map((idea) => [idea.title, idea.proposer, idea.builders, idea.objectors, idea.messageIds])).toEqual([
      ['"offline" for the offline mode', 'Claude', ['ChatGPT'], ['Grok'], [3, 4, 5]],
      // A person's message during the discussion is their idea; the answer quoting its words builds on it.
      ['What about syncing drafts only on wifi', 'Ana', ['Claude'], [], [6, 7]],
    ]);
    expect(first.disagreements).toEqual([
      {
        topic: 'Whether "offline" for the offline mode is the right move',
        sides: [
          {
            speakers: ['Claude', 'ChatGPT'],
            position: 'Agreeing with Ana on the direction, with one caveat: "offline" needs an owner and a review date, or it quietly becomes permanent.',
          },
          { speakers: ['Grok'], position: expect.stringMatching(/^What if "offline" is the wrong frame/) },
        ],
        messageIds: [3, 4, 5],
      },
    ]);
    expect(first.openQuestions).toEqual([{ question: 'What if "offline" is the wrong frame for mobile app entirely?', messageIds: [5] }]);
    expect(JSON.stringify(first)).not.toMatch(/about Offline mode|\(simulated\)/);

    // A later pass names the idea already in the ledger instead of a new one.
    const known: Idea[] = [
      {
        sessionId: 's',
        number: 1,
        title: '"offline" for the offline mode',
        summary: '',
        proposer: 'Claude',
        builders: [],
        objectors: [],
        messageIds: [2],
        mentions: 1,
        firstPass: 1,
        embedding: null,
      },
    ];
    const later = await extract(known, [
      participant(8, 'ChatGPT', 'A quick example of "offline" working for offline mode: start with the riskiest path only.'),
    ]);
    expect(later.ideas.map((idea) => [idea.existingIdea, idea.proposer])).toEqual([['I1', 'ChatGPT']]);
  });

  it("takes a person's point as their idea, titled by the point itself, and a question they only asked as none", async () => {
    const client = new OpenAI({ baseURL: simulator.url, apiKey: 'sk-demo', maxRetries: 0 });
    const agent = createIdeaExtractorAgent({ model: new OpenAIChatCompletionsModel(client, 'openai/gpt-4o-mini'), prompts: new PromptLibrary() });
    const batch = [
      person(3, 'Claude, what would the rollback look like if the new billing service fails?'),
      person(4, 'I think the real risk is that only two of us know billing. Grok, would a strangler fig help?'),
      person(5, "Let's also consider just cleaning up the billing module inside the monolith first."),
    ];
    const extraction = ideaExtractionSchema.parse((await run(agent, extractionInput('Split out billing?', [], batch))).finalOutput);
    expect(extraction.ideas.map((idea) => [idea.title, idea.messageIds])).toEqual([
      ['The real risk is that only two of us know billing', [4]],
      ['Cleaning up the billing module inside the monolith first', [5]],
    ]);
  });
});
