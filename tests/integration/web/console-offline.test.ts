import { afterAll, beforeAll, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, type BrowserSession } from '../../support/browser.ts';
import { describeInBrowser } from '../../support/browser-suite.ts';
import { openConsoleHarness, openSessionPage, type ConsoleHarness } from './support/console-harness.ts';

describeInBrowser('console: nothing typed is lost (a send that fails waits, a refused one comes back)', () => {
  let harness: ConsoleHarness;
  let browser: BrowserSession;
  let errors: string[];

  beforeAll(async () => {
    harness = await openConsoleHarness();
    await harness.server.start();
    browser = await launchBrowser({ viewport: { width: 400, height: 860 } });
    errors = collectPageErrors(browser.page);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('shows "disconnected — will send when back", keeps the text across a reload, then delivers it once, in order', async () => {
    const { page } = browser;
    await openSessionPage(page, harness.server.url, 'Keeping a shared on-call calm');

    // The server becomes unreachable for sends (as when it restarts): the requests fail at the network level.
    await page.route('**/api/rooms/*/messages', (route) => route.abort('connectionrefused'));
    await page.locator('#message-input').fill('First thing I said while you were away');
    await page.locator('#message-input').press('Enter');
    await page.locator('#message-input').fill('And a second one');
    await page.locator('#message-input').press('Enter');
    await page.locator('.outbox-status').filter({ hasText: '2 messages waiting' }).waitFor();
    await page.locator('#connection.offline').waitFor();
    expect(await page.locator('#connection').innerText()).toContain('disconnected — will send when back');

    // A reload does not lose them either.
    await page.reload();
    await page.locator('.outbox-status').filter({ hasText: '2 messages waiting' }).waitFor();

    await page.unroute('**/api/rooms/*/messages');
    await page.locator('.message.speaker-human', { hasText: 'And a second one' }).waitFor({ timeout: 30_000 });
    await page.locator('.outbox-status').waitFor({ state: 'hidden' });
    const said = await page.locator('.message.speaker-human .text').allInnerTexts();
    const first = said.findIndex((text) => text.includes('First thing I said'));
    const second = said.findIndex((text) => text.includes('And a second one'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    expect(said.filter((text) => text.includes('And a second one'))).toHaveLength(1);
    // Exact: "disconnected — will send when back" contains "connected" too.
    expect(await page.locator('#connection').innerText()).toBe('● connected');
    expect(errors.filter((error) => !error.includes('ERR_CONNECTION_REFUSED') && !error.includes('Failed to fetch'))).toEqual([]);
  });

  it('gives a refused message back to the message box, whole, and leaves a sent one out of it', async () => {
    const { page } = browser;
    await openSessionPage(page, harness.server.url, 'Reading long notes together');
    const box = page.locator('#message-input');

    // A long paste is kept whole in the box: the server, not the browser, says what is too long.
    const long = 'A point worth making at length. '.repeat(300).trim();
    await box.fill(long);
    expect((await box.inputValue()).length).toBe(long.length);

    // The room refuses it (as the gateway's screen answers a message over MAX_HUMAN_MESSAGE_CHARS): it comes back.
    const refusal = `Your message has ${long.length} characters; the limit is 8000. Please split it or share the key part.`;
    await page.route('**/api/rooms/*/messages', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ reply: { content: refusal, private: true, notPosted: true } }) }),
    );
    await box.press('Enter');
    await page.locator('.message.note', { hasText: 'the limit is 8000' }).waitFor();
    await expect.poll(() => box.inputValue()).toBe(long);

    // A request the server refuses outright comes back too.
    await page.unroute('**/api/rooms/*/messages');
    await page.route('**/api/rooms/*/messages', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: { status: 400, message: '"content" is longer than 60000 characters.' } }),
      }),
    );
    await box.fill('Refused by the route');
    await box.press('Enter');
    await page.locator('.message.note', { hasText: 'longer than 60000' }).waitFor();
    await expect.poll(() => box.inputValue()).toBe('Refused by the route');

    // A message the room takes leaves the box for good.
    await page.unroute('**/api/rooms/*/messages');
    await box.fill('Short and taken');
    await box.press('Enter');
    await page.locator('.message.speaker-human', { hasText: 'Short and taken' }).waitFor();
    expect(await box.inputValue()).toBe('');
  });

  it('keeps a topic too long to start a session whole in its box, with the reason beside it', async () => {
    const { page } = browser;
    await page.goto(harness.server.url);
    const topic = `How we should run our quarterly planning: ${'context worth keeping. '.repeat(200)}`.trim();
    await page.locator('#topic').fill(topic);
    expect((await page.locator('#topic').inputValue()).length).toBe(topic.length);
    await page.locator('#topic').press('Enter');
    await page.locator('#start-form .reply', { hasText: 'longer than 4000 characters' }).waitFor();
    expect(await page.locator('#topic').inputValue()).toBe(topic);
    expect(page.url()).not.toContain('#/rooms/');
  });
});
