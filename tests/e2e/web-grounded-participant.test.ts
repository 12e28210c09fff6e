/**
 * A web-grounded participant, end to end: a roster file turns on `webSearch` for one participant; the whole app
 * runs behind a real discord.js client (fake Discord), the fake OpenRouter and the fake Notion. The search's
 * `url_citation`s reach the room as a Sources line of masked links, the console API with the message, and the
 * Notion record as links; the search is counted and its cost is in the session's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findMaskedLinks } from '../../src/agents/guardrails/masked-links.ts';
import { createDiscordBot, createDiscordConnection, type DiscordBot } from '../../src/bot/discord-bot.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { ChatMessage } from '../../src/core/domain.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { ConsoleQueries } from '../../src/services/console/console-queries.ts';
import { createWebServer, type WebServer } from '../../src/web/index.ts';
import { startFakeDiscord, type FakeDiscord, type RecordedMessage } from '../fakes/discord/index.ts';
import { startFakeNotion, type FakeNotion } from '../fakes/notion/fake-notion.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { discordEnvironment } from '../integration/bot/discord-harness.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

const RELEASE = { url: 'https://example.com/release-notes', title: 'Release notes 4.2', content: 'Version 4.2 ships flags.' };
// A title that looks like another address than its page: the Sources line must not turn it into a masked link.
const MIRROR = { url: 'https://mirror.example.org/flags', title: 'docs.example.com', content: 'Flags, mirrored.' };
const ANSWER = 'Version 4.2 shipped feature flags last week; start with a kill switch per feature.';

let discord: FakeDiscord;
let models: FakeOpenRouter;
let notion: FakeNotion;
let bot: DiscordBot;
let test: TestApp;
let web: WebServer;
const clock = new ManualClock('2026-05-01T09:00:00Z');

function rosterFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'web-grounded-')), 'participants.json');
  const entries = [
    { id: 'scout', name: 'Scout', model: 'openai/gpt-4o', persona: 'Checks the facts on the web.', webSearch: { maxResults: 3 } },
    { id: 'sage', name: 'Sage', model: 'anthropic/claude-sonnet-4', persona: 'Weighs the trade-offs.' },
  ];
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

beforeAll(async () => {
  discord = await startFakeDiscord();
  models = await startFakeOpenRouter();
  notion = await startFakeNotion({ clock });
  const environment = {
    ...fakeEnvironment(models.url, {
      PARTICIPANTS_FILE: rosterFile(),
      SESSION_PLANNER_MODEL: 'sage',
      MODERATOR_MODEL: 'sage',
      SCRIBE_MODEL: 'sage',
      TLDR_MODEL: 'sage',
      MAX_AI_ROUNDS_WITHOUT_HUMAN: '1',
      NOTION_API_KEY: 'secret_test_token',
      NOTION_BASE_URL: notion.url,
      NOTION_PARENT_PAGE_ID: notion.parentPageId,
      SCRIBE_UPDATE_INTERVAL: '30',
    }),
    ...discordEnvironment(discord),
  };
  const options = { config: buildConfig(environment), clock, logger: createLogger({ level: 'silent', secrets: [] }) };
  const connection = createDiscordConnection(options);
  test = await startTestApp(environment, { clock, transports: [connection.transport] });
  bot = createDiscordBot({ ...options, gateway: test.app.gateway, connection });
  await bot.start();
  web = createWebServer({
    port: 0,
    gateway: test.app.gateway,
    queries: new ConsoleQueries(test.app.repositories, clock),
    events: test.app.events,
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  await web.start();
});
afterAll(async () => {
  await web?.stop();
  await bot?.stop();
  await test?.stop();
  await notion?.close();
  await models?.close();
  await discord?.close();
});

async function say(channelId: string, content: string): Promise<RecordedMessage> {
  const message = discord.post(channelId, discord.people.ada, content);
  await bot.handled(message.id);
  await test.settle();
  return message;
}

it('shows a web-grounded answer with its sources in Discord, the console and the Notion record', async () => {
  models.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
  const topic = await say(discord.channels['brainstorm']!.id, 'What changed in feature flag tooling lately?');
  const roomId = topic.threadId!;
  models.script({ participant: 'Scout' }, replies.searched(ANSWER, RELEASE, MIRROR));
  await say(roomId, '!approve');

  // The request carried the server tool; the other participant's did not.
  const scoutChat = models.chats.find((chat) => chat.agent.name === 'Scout');
  expect(scoutChat?.body.tools).toEqual([{ type: 'openrouter:web_search', parameters: { max_results: 3 } }]);
  expect(models.chats.filter((chat) => chat.agent.name === 'Sage').every((chat) => chat.body.tools === undefined)).toBe(true);

  // Discord: the answer, then a small Sources line of masked links the masked-link screen passes.
  const posted = discord.messagesIn(roomId).filter((message) => message.origin === 'webhook' && message.displayName === 'Scout');
  const content = posted.map((message) => message.content).join('\n');
  expect(content).toContain(ANSWER);
  expect(content).toContain('-# Sources: [Release notes 4.2](<https://example.com/release-notes>) · [mirror.example.org](<https://mirror.example.org/flags>)');
  expect(findMaskedLinks(content)).toEqual([]);

  // Stored with the message: the citations, the search count, and the search's cost in the message's and the session's.
  const session = (await test.app.repositories.sessions.findByRoom('discord', roomId))!;
  const stored = (await test.app.repositories.messages.listForSession(session.id)).find((message) => message.speaker.name === 'Scout')!;
  expect(stored.citations).toEqual([
    { url: RELEASE.url, title: RELEASE.title },
    { url: MIRROR.url, title: MIRROR.title },
  ]);
  expect(stored.webSearches).toBe(1);
  expect(stored.costUsd).toBeGreaterThan(2 * 0.004);
  expect((await test.app.repositories.sessions.findById(session.id))!.totalCostUsd).toBeGreaterThanOrEqual(stored.costUsd);

  // The console API hands the citations to the transcript with the message.
  const response = await fetch(`${web.url}/api/sessions/${encodeURIComponent(session.id)}/messages`);
  const messages = (await response.json()) as Array<Pick<ChatMessage, 'speaker' | 'citations'>>;
  expect(messages.find((message) => message.speaker.name === 'Scout')?.citations).toEqual(stored.citations);

  // The Notion record: a Web sources section whose entries are links to the cited pages.
  for (let round = 0; round < 4; round += 1) {
    await clock.advance(60_000);
    await test.settle();
  }
  const [recordPage] = notion.store.findPagesByTitle('Detailed record');
  const blocks = notion.store.pageContent(String(recordPage?.id));
  const links = blocks.flatMap((block) =>
    ((block.payload.rich_text as Array<{ text?: { content?: string; link?: { url?: string } | null } }> | undefined) ?? []).flatMap((item) =>
      item.text?.link?.url ? [{ text: item.text.content, url: item.text.link.url }] : [],
    ),
  );
  expect(links).toEqual(
    expect.arrayContaining([
      { text: RELEASE.title, url: RELEASE.url },
      { text: MIRROR.title, url: MIRROR.url },
    ]),
  );
  expect(blocks.some((block) => block.type === 'heading_2' && JSON.stringify(block.payload).includes('Web sources'))).toBe(true);
});
