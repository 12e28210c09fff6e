/**
 * An endpoint that sends no cost (OpenAI directly) still counts toward the cost limit: its calls are priced from
 * OpenRouter's `/models` list, and the console says which costs are the provider's and which are estimated.
 */
import { getGlobalTraceProvider } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleQueries } from '../../src/services/console/console-queries.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

const OPENAI_KEY = 'test-openai-direct-key';
// gpt-4o at OpenRouter's listed $2.50 / $10 per million tokens: 1,000 in and 60,000 out cost $0.6025.
const BIG_ANSWER = { promptTokens: 1000, completionTokens: 60_000 };

let openRouter: FakeOpenRouter;
let openAi: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  openRouter = await startFakeOpenRouter();
  // Stands in for api.openai.com: tokens in every usage, never a cost.
  openAi = await startFakeOpenRouter({ apiKey: OPENAI_KEY, reportsCost: false });
  test = await startTestApp(
    fakeEnvironment(openRouter.url, {
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: openAi.url,
      // The fakes answer in wall-clock time while the app runs on a manual clock: deadlines must not fire meanwhile.
      PARTICIPANT_FIRST_TOKEN_TIMEOUT_SECONDS: '3600',
      PARTICIPANT_ANSWER_TIMEOUT_SECONDS: '3600',
    }),
  );
});
afterAll(async () => {
  await test?.stop();
  await openRouter?.close();
  await openAi?.close();
});

describe('cost without the provider’s usage.cost', () => {
  it('prices a direct endpoint’s answers from the price table, so the session’s cost limit trips', async () => {
    expect(test.app.config.models.roster.find((entry) => entry.id === 'chatgpt')).toMatchObject({ model: 'gpt-4o', baseUrl: openAi.url });
    const room = await proposeSession(test, openRouter, { maxCostUsd: 0.5 });
    openAi.script({ participant: 'ChatGPT' }, replies.text('Flags in config first, a service later.', { usage: BIG_ANSWER }));
    await test.command(room, 'approve');
    await test.settle();

    const session = (await test.app.repositories.sessions.findByRoom(test.transport.name, room))!;
    expect(session.status).toBe('completed');
    expect(session.endReason).toBe('the cost limit was reached');
    expect(session.totalCostUsd).toBeGreaterThanOrEqual(0.6025);

    const messages = await test.app.repositories.messages.listForSession(session.id);
    const chatGpt = messages.find((message) => message.speaker.name === 'ChatGPT' && message.outputTokens === BIG_ANSWER.completionTokens);
    expect(chatGpt).toMatchObject({ costUsd: 0.6025, costSource: 'price_table' });
    const claude = messages.find((message) => message.speaker.name === 'Claude' && message.inputTokens > 0);
    expect(claude?.costSource).toBe('provider');

    await getGlobalTraceProvider().forceFlush();
    const queries = new ConsoleQueries(test.app.repositories, test.clock);
    const detail = (await queries.getSession(session.id))!;
    expect(detail.cost?.sources).toEqual(expect.arrayContaining(['provider', 'price_table']));
    expect(detail.cost?.text).toContain('estimated from price table');
    expect(detail.cost?.unknownModels).toEqual([]);
    const trace = (await queries.getTrace(chatGpt!.traceId!, { payloads: false }))!;
    const generation = trace.spans.find((span) => span.kind === 'generation' && span.outputTokens === BIG_ANSWER.completionTokens);
    expect(generation).toMatchObject({ model: 'gpt-4o', costUsd: 0.6025, costSource: 'price_table' });
    const transcript = await queries.listMessages(session.id);
    expect(transcript.find((message) => message.id === chatGpt!.id)?.costSource).toBe('price_table');
  });
});
