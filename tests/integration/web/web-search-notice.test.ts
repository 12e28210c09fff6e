/** A participant that asks for web search on a direct endpoint: the console says it runs without, under its header. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load-config.ts';
import { webSearchNotices } from '../../../src/config/web-search.ts';
import { openConsoleHarness, type ConsoleHarness } from './support/console-harness.ts';

let harness: ConsoleHarness;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'roster-')), 'roster.json');
  const direct = { id: 'gpt', name: 'GPT', model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1', apiKeyVariable: 'OPENAI_API_KEY', persona: 'Direct.' };
  writeFileSync(file, JSON.stringify([{ ...direct, webSearch: true }]));
  const roles = { SESSION_PLANNER_MODEL: 'gpt', MODERATOR_MODEL: 'gpt', SCRIBE_MODEL: 'gpt', TLDR_MODEL: 'gpt' };
  const config = buildConfig({ OPENAI_API_KEY: 'sk-direct-test', PARTICIPANTS_FILE: file, ...roles });
  harness = await openConsoleHarness({ notices: () => webSearchNotices(config.models.roster) });
  await harness.server.start();
});
afterAll(async () => harness.close());

it('/api/status carries the notice the console shows', async () => {
  const response = await fetch(`${harness.server.url}/api/status`);
  const status = (await response.json()) as { notices: string[] };
  expect(status.notices).toEqual([expect.stringMatching(/^GPT asks for web search, but its endpoint \(https:\/\/api\.openai\.com\/v1\) is not OpenRouter/)]);
});
