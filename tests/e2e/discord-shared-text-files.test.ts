/**
 * A text file shared in a session (a spec in Markdown, a CSV) is read, so the participants discuss what it says. A
 * key inside a file is refused like a pasted one; a file too long is cut with a note, within the message limit; a
 * file the CDN no longer serves is named only, and the words that came with it still count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/domain.ts';
import type { RecordedMessage } from '../fakes/discord/index.ts';
import { postAndSettle, startDiscordApp, type DiscordApp } from '../support/discord-app.ts';
import { keySamples } from '../unit/agents/guardrails/secret-samples.ts';
import { minimalPdf } from '../support/minimal-pdf.ts';

/** A made-up OpenAI project key (built at run time, so no key-shaped text sits in the source). */
const fileKey = keySamples().find(([kind, key]) => kind === 'openai_api_key' && key.includes('-proj-'))![1];

let running: DiscordApp;
let roomId = '';
let sessionId = '';
beforeAll(async () => {
  running = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', MAX_HUMAN_MESSAGE_CHARS: '8000' });
  const { discord, test } = running;
  roomId = (await postAndSettle(running, discord.channels['brainstorm']!.id, discord.people.ada, 'How do we cut onboarding time?')).threadId!;
  await postAndSettle(running, roomId, discord.people.ada, 'A B2B analytics tool.');
  await postAndSettle(running, roomId, discord.people.ada, '!approve');
  sessionId = (await test.app.repositories.sessions.findByRoom('discord', roomId))!.id;
});
afterAll(async () => running?.stop());

const storedFrom = async (message: RecordedMessage): Promise<ChatMessage | undefined> =>
  (await running.test.app.repositories.messages.listForSession(sessionId)).find((entry) => entry.externalIds.includes(message.id));
const lastParticipantPrompt = () => JSON.stringify(running.models.chats.filter((chat) => chat.agent.role === 'participant').at(-1)?.body.messages);

describe('text files people share', () => {
  it('are read: the session stores what the file says under its line, and the participants read it', async () => {
    const spec = '# Onboarding PRD\n\nGoal: a new admin invites their team within 5 minutes.\nNon-goal: SSO in the first release.';
    const shared = await postAndSettle(running, roomId, running.discord.people.bob, 'Here is the PRD, what is missing?', {
      files: [{ name: 'prd.md', contentType: 'text/markdown; charset=utf-8', content: spec }],
    });
    const stored = await storedFrom(shared);
    expect(stored?.text).toMatch(
      /^Here is the PRD, what is missing\?\n\[attached file: prd\.md <https:\/\/cdn\.discordapp\.com\/attachments\/.+>\]\n```\n# Onboarding PRD/,
    );
    expect(lastParticipantPrompt()).toContain('invites their team within 5 minutes');
  });

  it('a PDF is read: its text layer is stored under its line, and the participants read it; a scanned one is named only', async () => {
    const spec = minimalPdf([['Pricing proposal v2', 'Seats: 12 dollars a month each.'], ['Annual plans get two months free.']]);
    const shared = await postAndSettle(running, roomId, running.discord.people.bob, 'The pricing proposal:', {
      files: [
        { name: 'pricing.pdf', contentType: 'application/pdf', content: spec },
        { name: 'whiteboard-scan.pdf', contentType: 'application/pdf', content: minimalPdf([[]]) },
      ],
    });
    const stored = await storedFrom(shared);
    expect(stored?.text).toMatch(
      /^The pricing proposal:\n\[attached PDF: pricing\.pdf <[^>]+>\]\n```\nPricing proposal v2\nSeats: 12 dollars a month each\.\n\nAnnual plans/,
    );
    expect(stored?.text).toMatch(/\[attached PDF: whiteboard-scan\.pdf <[^>]+>\]$/);
    expect(lastParticipantPrompt()).toContain('Annual plans get two months free.');
  });

  it('a key inside a file is refused like a pasted key: nothing of it is stored or sent', async () => {
    const requestsBefore = running.models.chats.length;
    const leaked = await postAndSettle(running, roomId, running.discord.people.bob, 'Config for the demo:', {
      files: [{ name: 'demo.env', contentType: 'text/plain', content: `OPENAI_API_KEY=${fileKey}` }],
    });
    expect(await storedFrom(leaked)).toBeUndefined();
    expect(JSON.stringify(running.models.chats.slice(requestsBefore))).not.toContain(fileKey);
    expect(running.discord.messagesIn(roomId).some((message) => message.origin === 'bot' && /key|secret/i.test(message.content))).toBe(true);
  });

  it('a long file is cut with a note, within the message limit', async () => {
    const rows = Array.from({ length: 400 }, (_, index) => `step ${index},owner ${index % 7},minutes ${index % 13}`).join('\n');
    const shared = await postAndSettle(running, roomId, running.discord.people.bob, 'Our funnel data.', {
      files: [{ name: 'funnel.csv', contentType: 'text/csv', content: rows }],
    });
    const stored = await storedFrom(shared);
    expect(stored?.text).toMatch(/\(the first \d+ of \d+ characters\)$/);
    expect(stored!.text.length).toBeLessThanOrEqual(8000);
  });

  it('a file the CDN no longer serves is named only, and the message still counts', async () => {
    const shared = await postAndSettle(running, roomId, running.discord.people.bob, 'Old notes attached.', {
      files: [{ name: 'notes.txt', contentType: 'text/plain', content: 'never read', expiresAt: new Date(Date.now() - 60_000) }],
    });
    expect((await storedFrom(shared))?.text).toMatch(/^Old notes attached\.\n\[attached file: notes\.txt <[^>]+>\]$/);
  });

  it('a topic raised with a long file opens its session: the Planner reads the gist, the participants the whole', async () => {
    const { discord, test } = running;
    const brief = Array.from({ length: 120 }, (_, index) => `Finding ${index}: admins stall at step ${index % 9} of the setup.`).join('\n');
    const topic = await postAndSettle(running, discord.channels['brainstorm']!.id, discord.people.ada, 'Brainstorm on these findings', {
      files: [{ name: 'findings.md', contentType: 'text/markdown', content: brief }],
    });
    const session = (await test.app.repositories.sessions.findByRoom('discord', topic.threadId!))!;
    expect(session.status).toMatch(/planning|awaiting_approval/);
    expect(session.topic.length).toBeGreaterThan(4000);
    const plannerRequest = running.models.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!;
    const plannerTopic = JSON.stringify(plannerRequest.body.messages.find((message) => message.role === 'user')?.content);
    expect(plannerTopic.length).toBeLessThanOrEqual(4000 + 200);
    expect(plannerTopic).toMatch(/the participants read the whole of it in the room/);
    const stored = await test.app.repositories.messages.listForSession(session.id);
    expect(stored.find((message) => message.externalIds.includes(topic.id))?.text).toContain('Finding 119: admins stall at step 2');
  });
});
