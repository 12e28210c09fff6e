import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  collectPageErrors,
  launchBrowser,
  SCREENSHOT_DIRECTORY,
  startAppProcess,
  waitForHealthy,
  type AppProcess,
  type BrowserSession,
} from '../support/browser.ts';
import { describeInBrowser } from '../support/browser-suite.ts';
import type { Locator } from 'playwright-core';

// `npm run screenshots` sets SCREENSHOT_DIR=docs/screenshots to refresh the README's pictures; tests alone never touch them.
const SCREENSHOTS = SCREENSHOT_DIRECTORY;
const STEP_MS = 90_000;

/**
 * Presses `button` until `effect` shows. Answers still arrive while the test presses, and the view follows them, so a
 * click can land where the button was a moment before. A press that ran disables the button and then removes it, and a
 * link that ran leaves the page, so no press runs twice.
 */
async function pressUntil(button: Locator, effect: Locator): Promise<void> {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    if ((await button.count()) > 0 && (await button.isEnabled().catch(() => false))) await button.click({ timeout: 5_000 }).catch(() => undefined);
    const shown = await effect.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return;
    if (Date.now() > deadline) throw new Error(`pressing ${String(button)} never showed ${String(effect)}`);
  }
}

describeInBrowser('first run: npm start with no .env, then a brainstorm in the console', () => {
  let app: AppProcess;
  let browser: BrowserSession;
  let errors: string[];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    app = await startAppProcess();
    await waitForHealthy(app, 180_000);
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(STEP_MS);
    errors = collectPageErrors(browser.page);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('starts a session, answers the Planner, approves, hears three participants, and walks trace <-> message', async () => {
    const { page } = browser;
    await page.goto(app.url);
    // The banner fills in once /api/status answers.
    await page.locator('#demo-banner').waitFor();
    expect(await page.locator('#demo-banner').innerText()).toMatch(/simulated/i);
    expect(app.output()).toContain(app.url);

    await page.locator('#topic').fill('Should a five-person team ship every week, and how without burning out?');
    await page.locator('#start-session').click();
    await page.waitForURL(/#\/sessions\//);

    // The Planner either asks questions first or goes straight to a plan.
    await page.locator('#approve-plan, .message.speaker-planner').first().waitFor();
    if (!(await page.locator('#approve-plan').isVisible())) {
      await page.locator('#message-input').fill('Five engineers and a designer; releases slip and people work late. Aim for habits we can try next sprint.');
      await page.locator('#message-input').press('Enter');
    }
    await page.locator('#approve-plan').click();
    await page.waitForFunction(
      () => new Set(Array.from(document.querySelectorAll<HTMLElement>('.message.speaker-participant'), (node) => node.dataset.speaker)).size >= 3,
      null,
      {
        timeout: STEP_MS,
      },
    );
    const speakers = new Set(await page.locator('.message.speaker-participant .speaker').allInnerTexts());
    expect(speakers.size).toBeGreaterThanOrEqual(3);
    // Not only participants: the Planner's and the Moderator's messages link to the traces that wrote them.
    expect(await page.locator('.message[data-speaker="Planner"] .trace-link').count()).toBeGreaterThan(0);
    expect(await page.locator('.message[data-speaker="Moderator"] .trace-link').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-session.png') });
    const sessionUrl = page.url();

    const answer = page.locator('.message.speaker-participant:has(.trace-link)').first();
    const speaker = (await answer.getAttribute('data-speaker')) as string;
    // The transcript redraws as the next answers arrive: a click can land on the link it replaced (CI on d35ecfc).
    await pressUntil(answer.locator('.trace-link'), page.locator('#waterfall[data-rendered="true"]'));
    const generations = page.locator('.wf-row.kind-generation');
    expect(await generations.count()).toBeGreaterThan(0);
    expect((await generations.locator('.wf-tokens').allInnerTexts()).some((text) => /\d+\/\d+/.test(text))).toBe(true);
    // The message's trace link opened the span that produced it.
    await page.locator('.wf-row.selected').waitFor();
    expect(await page.locator('#span-detail').innerText()).toMatch(/Tokens\s+[\d,]+ in · [\d,]+ out/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, 'console-trace.png') });

    await page.locator('#span-message-link').click();
    await page.locator(`.message.highlight[data-speaker="${speaker}"]`).waitFor();
    await pressUntil(page.locator('.message.highlight .trace-link'), page.locator('.wf-row.selected'));

    await page.locator('#trace-session-link').click();
    await page.locator('#session-traces').click();
    await page.locator('#trace-results .trace-group tr[data-trace-id]').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'console-traces.png') });
    await page.goto(`${app.url}/#/`);
    const row = page.locator('#sessions-table tbody tr').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('five-person team');
    expect((await row.locator('td').nth(2).innerText()).split(', ').length).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-sessions.png') });

    // On a phone, in the dark: the same session reads without sideways scrolling.
    await page.setViewportSize({ width: 400, height: 860 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(sessionUrl);
    await page.locator('.message.speaker-participant').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-session-phone-dark.png') });

    await page.locator('#message-input').fill('Let us pilot a no-meeting Wednesday next sprint; Ada owns it.');
    await page.locator('#message-input').press('Enter');
    await page.locator('.message.speaker-human', { hasText: 'no-meeting Wednesday' }).waitFor();
    // `!steps` answers with a Done button per open step; a press ticks it and lists the steps again, that one ticked.
    await page.locator('#message-input').fill('!steps');
    await page.locator('#message-input').press('Enter');
    const list = page.locator('.message.note', { hasText: 'Next steps' }).last();
    const doneOne = list.locator('.command-button', { hasText: /^Done 1$/ });
    await doneOne.waitFor();
    await pressUntil(doneOne, page.locator('.message.note', { hasText: /☑ 1\. .+ — done, by / }));
    await page.locator('.message.note', { hasText: /Next steps.+ 1 done\)/ }).waitFor();
    expect(await page.locator('.message.note .command-button', { hasText: /^Done 1$/ }).count()).toBe(0);
    // Opened again, the step has its button in the next list, and a press there ticks it once more.
    for (const command of ['!reopen 1', '!steps']) {
      await page.locator('#message-input').fill(command);
      await page.locator('#message-input').press('Enter');
    }
    const reopened = page.locator('.message.note', { hasText: /Next steps.+ 0 done\)/ }).last();
    const doneOneAgain = reopened.locator('.command-button', { hasText: /^Done 1$/ });
    await doneOneAgain.waitFor();
    await pressUntil(doneOneAgain, page.locator('.message.note', { hasText: /Next steps.+ 1 done\)/ }).nth(1));
    // A decision topic plans a critique round; stopped before it, the panel says so and counts nothing.
    await page.locator('#message-input').fill('!stop');
    await page.locator('#message-input').press('Enter');
    await expect
      .poll(
        () =>
          page
            .locator('#critique')
            .innerText()
            .catch(() => ''),
        { timeout: STEP_MS },
      )
      .toContain('Skipped: the session was stopped.');
    expect(await page.locator('#critique').innerText()).not.toContain('Borda count');

    // The closing lists the next steps with a Done button each, as in Discord: a press ticks the step and the button goes.
    const closing = page.locator('.message[data-speaker="Moderator"]', { hasText: 'this session is closed' });
    await closing.locator('.command-button').first().waitFor();
    const label = await closing.locator('.command-button').first().innerText();
    expect(label).toMatch(/^Done [2-9]$/);
    const buttons = await closing.locator('.command-button').count();
    const step = label.slice(5);
    expect(await closing.locator('.text').innerText()).toContain(`☐ ${step}. `);
    await pressUntil(
      closing.locator('.command-button', { hasText: new RegExp(`^${label}$`) }),
      page.locator('.message.note', { hasText: new RegExp(`☑ ${step}\\. .+ — done, by `) }),
    );
    await expect.poll(() => closing.locator('.command-button').count()).toBe(buttons - 1);
    // The closing shows that step's line ticked, as Discord's copy is edited; the other lines stay open.
    const ticked = await closing.locator('.text').innerText();
    expect(ticked).toContain(`☑ ${step}. `);
    expect(ticked).not.toContain(`☐ ${step}. `);
    expect(ticked.match(/☐ \d+\. /g)?.length ?? 0).toBe(buttons - 1);
    // Gone after a reload too, as the notes are kept.
    await page.reload();
    await closing.locator('.text').waitFor();
    expect(await closing.locator('.command-button', { hasText: new RegExp(`^${label}$`) }).count()).toBe(0);
    expect(await closing.locator('.text').innerText()).toContain(`☑ ${step}. `);
    expect(errors).toEqual([]);
  }, 600_000);
});
