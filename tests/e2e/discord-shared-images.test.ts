/**
 * A person shares a screenshot in the thread. The participants whose models see images are shown it with the words
 * (OpenRouter's `image_url` part); a text-only model reads that an image was attached. An address Discord's CDN no
 * longer serves is not sent. A model that refuses the image (a roster that says it sees images when it does not)
 * still answers, from the words, and is sent no images after.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequestRecord } from '../fakes/openrouter/fake-openrouter.ts';
import { postAndSettle, startDiscordApp, type DiscordApp } from '../support/discord-app.ts';

let running: DiscordApp | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Starts the app and opens an approved session in a thread; returns the thread's id. */
async function openSession(environment: Record<string, string> = {}): Promise<{ app: DiscordApp; roomId: string }> {
  const app = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', ...environment });
  running = app;
  const { discord } = app;
  const roomId = (await postAndSettle(app, discord.channels['brainstorm']!.id, discord.people.ada, 'How should our onboarding screen look?')).threadId!;
  await postAndSettle(app, roomId, discord.people.ada, 'A B2B analytics tool, first-time admins.');
  await postAndSettle(app, roomId, discord.people.ada, '!approve');
  return { app, roomId };
}

/** The image addresses a chat request showed its model. */
function imagesShown(chat: ChatRequestRecord): string[] {
  return chat.body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<{ type: string; image_url?: { url: string } }>).flatMap((part) => (part.type === 'image_url' ? [part.image_url!.url] : []))
      : [],
  );
}

const bodyText = (request: { body: unknown }): string => JSON.stringify(request.body ?? null);
const participantChats = (app: DiscordApp, name: string) => app.models.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === name);
const lastChat = (app: DiscordApp, name: string): ChatRequestRecord => participantChats(app, name).at(-1)!;

function rosterFile(grokSeesImages: boolean): string {
  const file = join(mkdtempSync(join(tmpdir(), 'brainstorm-roster-')), 'participants.json');
  const entries = [
    { id: 'claude', name: 'Claude', model: 'anthropic/claude-sonnet-4', persona: 'Careful.' },
    { id: 'chatgpt', name: 'ChatGPT', model: 'openai/gpt-4o', persona: 'Practical.' },
    { id: 'grok', name: 'Grok', model: 'x-ai/grok-3', persona: 'Contrarian.', images: grokSeesImages },
  ];
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

describe('images people share', () => {
  it('are shown to the models that see images, with the words; a text-only model reads that one was attached', async () => {
    const { app, roomId } = await openSession();
    const shot = await postAndSettle(app, roomId, app.discord.people.bob, 'What do you make of this mockup?', {
      files: [{ name: 'onboarding-v2.png', contentType: 'image/png' }],
    });
    const address = shot.attachments[0]!.url;
    expect(imagesShown(lastChat(app, 'Claude'))).toEqual([address]);
    expect(imagesShown(lastChat(app, 'ChatGPT'))).toEqual([address]);
    // Grok 3 reads text only (OpenRouter lists no image input for it): the words name the file instead.
    expect(imagesShown(lastChat(app, 'Grok'))).toEqual([]);
    expect(JSON.stringify(lastChat(app, 'Grok').body.messages)).toContain('[attached image: onboarding-v2.png');
    // The image sits in the same user message as the words that came with it.
    const withImage = lastChat(app, 'Claude').body.messages.find((message) => JSON.stringify(message.content).includes('"image_url"'))!;
    expect(JSON.stringify(withImage.content)).toContain('What do you make of this mockup?');
  });

  it('an address the CDN no longer serves is not sent (the words still are)', async () => {
    const { app, roomId } = await openSession();
    const expiresAt = new Date(app.test.clock.now().getTime() - 60_000);
    await postAndSettle(app, roomId, app.discord.people.bob, 'Old screenshot from last week.', {
      files: [{ name: 'old.png', contentType: 'image/png', expiresAt }],
    });
    // No request carried it (a provider fetching it would fail the request), and each model still read the words.
    expect(app.models.requests.some((request) => bodyText(request).includes('"image_url"'))).toBe(false);
    expect(JSON.stringify(lastChat(app, 'Claude').body.messages)).toContain('[attached image: old.png');
  });

  it('a model that refuses the image answers from the words, and is sent no images after', async () => {
    const { app, roomId } = await openSession({ PARTICIPANTS_FILE: rosterFile(true) });
    const grokAnswers = async () => (await app.test.app.repositories.messages.listForSession(sessionId)).filter((message) => message.speaker.name === 'Grok');
    const sessionId = (await app.test.app.repositories.sessions.findByRoom('discord', roomId))!.id;
    const answeredBefore = (await grokAnswers()).length;
    const refusedBefore = app.models.requests.length;
    await postAndSettle(app, roomId, app.discord.people.bob, 'Which of these two layouts reads faster?', {
      files: [{ name: 'layouts.png', contentType: 'image/png' }],
    });
    // Grok's endpoint refused the request that showed the image (OpenRouter: 404, no endpoint supports image input)...
    const refused = app.models.requests.slice(refusedBefore).filter((request) => bodyText(request).includes('"image_url"'));
    expect(refused.some((request) => bodyText(request).includes('x-ai/grok-3'))).toBe(true);
    // ...then answered the same turn from the words.
    expect(imagesShown(lastChat(app, 'Grok'))).toEqual([]);
    expect((await grokAnswers()).length).toBe(answeredBefore + 1);
    // The next image is not sent to it again; the models that see images still get it.
    const grokRequests = app.models.requests.filter((request) => bodyText(request).includes('x-ai/grok-3')).length;
    await postAndSettle(app, roomId, app.discord.people.bob, 'And this variant?', { files: [{ name: 'variant.png', contentType: 'image/png' }] });
    const grokAfter = app.models.requests.filter((request) => bodyText(request).includes('x-ai/grok-3')).slice(grokRequests);
    expect(grokAfter.length).toBeGreaterThan(0);
    expect(grokAfter.every((request) => !bodyText(request).includes('"image_url"'))).toBe(true);
    expect(imagesShown(lastChat(app, 'Claude')).length).toBeGreaterThan(0);
  });
});
