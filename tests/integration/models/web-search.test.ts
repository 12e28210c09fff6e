/**
 * Web-grounded participants through the real `openai` client and the SDK's Chat Completions model: the request
 * carries OpenRouter's `openrouter:web_search` server tool, the `url_citation` annotations come back (streamed and
 * not), the search is counted and priced into the cost; the fake refuses a tool type OpenRouter does not know.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { run } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCatalog, usageOf } from '../../../src/agents/models/index.ts';
import { createParticipantAgent } from '../../../src/agents/participants/participant-agent.ts';
import { citationsOf, webSearchesOf } from '../../../src/agents/participants/web-search.ts';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { costOf } from '../../../src/simulator/index.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { driveClock } from './conformance-table.ts';

let fake: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter();
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

const RELEASE = { url: 'https://example.com/release-notes', title: 'Release notes 4.2', content: 'Version 4.2 ships flags.' };
const SURVEY = { url: 'https://survey.example.org/flags', title: 'State of feature flags', content: 'Most teams use flags.' };
const ANSWER = 'Version 4.2 shipped feature flags last week, and most teams already use them.';

function rosterFile(entries: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'web-search-')), 'roster.json');
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

function participantsConfig(webSearch: unknown, baseUrl?: string) {
  const entry = { id: 'scout', name: 'Scout', model: 'openai/gpt-4o', persona: 'Looks things up.', webSearch, ...(baseUrl ? { baseUrl } : {}) };
  const other = { id: 'sage', name: 'Sage', model: 'openai/gpt-4o', persona: 'Thinks.' };
  const roles = { SESSION_PLANNER_MODEL: 'sage', MODERATOR_MODEL: 'sage', SCRIBE_MODEL: 'sage', TLDR_MODEL: 'sage' };
  return buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: 'sk-test', PARTICIPANTS_FILE: rosterFile([entry, other]), ...roles });
}

async function turn(webSearch: unknown, stream: boolean) {
  const config = participantsConfig(webSearch);
  const clock = new ManualClock();
  const models = new ModelCatalog(config.models, { clock });
  const participant = config.models.roster[0]!;
  const agent = createParticipantAgent({
    participant,
    model: models.participant(participant.id),
    prompts: new PromptLibrary(),
    topic: 'feature flags',
    plan: null,
    otherParticipantNames: ['Sage'],
  });
  const outcome = await driveClock(
    clock,
    (async () => {
      if (!stream) return await run(agent, '[Alice]: What shipped lately?', { maxTurns: 2 });
      const streamed = await run(agent, '[Alice]: What shipped lately?', { stream: true, maxTurns: 2 });
      for await (const _chunk of streamed.toTextStream()) void _chunk;
      await streamed.completed;
      return streamed;
    })(),
  );
  if (outcome.error) throw outcome.error;
  return outcome.value!;
}

describe.each([true, false])('a web-grounded participant (streamed: %s)', (stream) => {
  it('sends the openrouter:web_search server tool with max_results, and gets its url citations back', async () => {
    fake.script({ participant: 'Scout' }, replies.searched(ANSWER, RELEASE, SURVEY, { url: 'https://third.example.net/', title: 'Third' }));
    const result = await turn({ maxResults: 2 }, stream);
    expect(fake.chats.at(-1)?.body.tools).toEqual([{ type: 'openrouter:web_search', parameters: { max_results: 2 } }]);
    expect(String(result.finalOutput)).toBe(ANSWER);
    // max_results capped the search at two results: the third never comes back.
    expect(citationsOf(result.rawResponses)).toEqual([
      { url: RELEASE.url, title: RELEASE.title },
      { url: SURVEY.url, title: SURVEY.title },
    ]);
    expect(webSearchesOf(result.rawResponses)).toBe(1);
  });

  it('counts the search results in the cost OpenRouter reports', async () => {
    fake.script({ participant: 'Scout' }, replies.searched(ANSWER, RELEASE, SURVEY));
    const usage = usageOf(await turn(true, stream));
    const tokensOnly = costOf('openai/gpt-4o', usage.inputTokens, usage.outputTokens);
    expect(usage.costUsd).toBeCloseTo(tokensOnly + 2 * 0.004, 8);
  });

  it('sends no tool and gets no citations when web search is off', async () => {
    fake.script({ participant: 'Scout' }, replies.searched(ANSWER, RELEASE));
    const result = await turn(false, stream);
    expect(fake.chats.at(-1)?.body).not.toHaveProperty('tools');
    expect(citationsOf(result.rawResponses)).toEqual([]);
    expect(webSearchesOf(result.rawResponses)).toBe(0);
  });
});

describe('where web search is not available', () => {
  it('a direct endpoint is marked unsupported and its requests carry no server tool', () => {
    const config = participantsConfig(true, 'https://api.example.com/v1');
    expect(config.models.roster[0]?.webSearch).toEqual({ status: 'unsupported' });
    expect(config.models.roster[1]?.webSearch).toBeUndefined();
  });

  it('the fake refuses a tool type OpenRouter does not know, and bad web search parameters, with 400', async () => {
    const client = new OpenAI({ baseURL: fake.url, apiKey: 'sk-test', maxRetries: 0 });
    const ask = (tools: unknown[]) => client.chat.completions.create({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools } as never);
    await expect(ask([{ type: 'openrouter:teleport' }])).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/unknown tool type/) });
    await expect(ask([{ type: 'openrouter:web_search', parameters: { max_results: 99 } }])).rejects.toMatchObject({ status: 400 });
    await expect(ask([{ type: 'openrouter:web_search' }])).resolves.toMatchObject({ object: 'chat.completion' });
  });
});
