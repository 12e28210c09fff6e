import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, SCREENSHOT_DIRECTORY, type BrowserSession } from '../../support/browser.ts';
import { describeInBrowser } from '../../support/browser-suite.ts';
import { openConsoleHarness, type ConsoleHarness } from './support/console-harness.ts';

const SHOTS = join(SCREENSHOT_DIRECTORY, 'scripted');

describeInBrowser('console (scripted services)', () => {
  let harness: ConsoleHarness;
  let browser: BrowserSession;
  let errors: string[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    harness = await openConsoleHarness();
    await harness.server.start();
    browser = await launchBrowser();
    errors = collectPageErrors(browser.page);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('starts a session, answers the Planner, approves, and follows a span to its message and back', async () => {
    const { page } = browser;
    await page.goto(harness.server.url);
    // The banner is filled from /api/status, which the page fetches after it has loaded.
    await page.locator('#demo-banner').waitFor();
    expect(await page.locator('#demo-banner').innerText()).toContain('simulated');

    await page.locator('#person-name').fill('Ada');
    await page.locator('#person-name').dispatchEvent('change');
    await page.locator('#topic').fill('Shipping weekly without burning out');
    await page.locator('#start-session').click();
    await page.waitForURL(/#\/sessions\//);
    await page.locator('.message[data-speaker="Planner"]').first().waitFor();
    // The transcript and the plan panel are refreshed by separate events: wait for the panel's own update.
    await expect.poll(() => page.locator('#plan').innerText()).toContain('Who is the team?');

    await page.locator('#message-input').fill('Five engineers; **late nights** <img src=x onerror="window.__injected=1">');
    await page.locator('#message-input').press('Enter');
    await page.locator('#approve-plan').waitFor();
    await page.locator('#approve-plan').click();
    await page.locator('.message.speaker-participant').nth(2).waitFor();
    expect(await page.locator('.message.speaker-participant .speaker').allInnerTexts()).toEqual(['Claude', 'ChatGPT', 'Grok']);
    expect(await page.locator('.message[data-speaker="Ada"]').count()).toBe(2);
    // Markdown emphasis is drawn, markup in the text stays text.
    const answer = page.locator('.message[data-speaker="Ada"]').nth(1);
    expect(await answer.locator('.text strong').innerText()).toBe('late nights');
    expect(await answer.innerText()).toContain('<img src=x');
    expect(await answer.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    // The approval's reply comes with its request's answer, which a loaded machine may send after the answers are drawn.
    await expect.poll(() => page.locator('#replies').innerText()).toContain('Plan approved by Ada.');
    // Limits and usage come with the session's own refresh, which may land just after the last answer is drawn.
    await expect.poll(() => page.locator('[data-limit="messages"]').innerText()).toContain('7 / 30');
    // Ada's two messages count with the participants' answers; the roles' messages do not, and the label says so.
    expect(await page.locator('[data-limit="messages"] .limit-label span').first().innerText()).toBe('Messages (people + participants)');
    await expect.poll(() => page.locator('#usage').innerText()).toMatch(/Grok\s+1\s+1,024/);
    // Where each cost came from: the session's mix, and each answer's own.
    expect(await page.locator('#usage-cost-source').innerText()).toMatch(/^Cost \$[\d.]+ \(provider \+ estimated from price table\)$/);
    expect(await page.locator('.message[data-speaker="Claude"] .meta .cost').innerText()).toBe('$0.00200 (provider)');
    expect(await page.locator('.message[data-speaker="ChatGPT"] .meta .cost').innerText()).toBe('$0.00200 (estimated from price table)');
    await page.screenshot({ path: `${SHOTS}/session.png` });

    await page.locator('.message[data-speaker="Claude"] .trace-link').click();
    await page.locator('#waterfall[data-rendered="true"]').waitFor();
    expect(await page.locator('.wf-row.kind-generation').count()).toBe(3);
    expect(await page.locator('.wf-row.tripped').count()).toBe(1);
    expect(await page.locator('.handoff-link').count()).toBe(1);
    const detail = page.locator('#span-detail');
    expect(await detail.innerText()).toMatch(/Tokens\s+900 in · 120 out/);
    expect(await detail.innerText()).toMatch(/Cost\s+\$0\.00200 \(provider\)/);
    await detail.locator('.span-messages').first().waitFor();
    // Model text is shown as text: the markup in the span's input never becomes an element.
    expect(await detail.innerText()).toContain('[You]: <b>go</b>');
    expect(await detail.locator('b').count()).toBe(0);
    expect(await detail.innerText()).not.toMatch(/^null$/m);
    expect(await page.locator('#participant-totals').innerText()).toContain('Grok');
    await page.screenshot({ path: `${SHOTS}/trace.png` });

    await page.locator('#span-message-link').click();
    await page.locator('.message.highlight[data-speaker="Claude"]').waitFor();
    await page.locator('.message.highlight .trace-link').click();
    await page.locator('.wf-row.selected.kind-generation').waitFor();
    expect(await page.locator('#span-detail h3').innerText()).toBe('generation');

    await page.goto(`${harness.server.url}/#/traces?model=x-ai/grok-4`);
    await page.locator('#trace-results .trace-group').waitFor();
    expect(await page.locator('#trace-results tr[data-trace-id]').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
