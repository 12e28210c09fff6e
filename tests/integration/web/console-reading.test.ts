import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, SCREENSHOT_DIRECTORY, type BrowserSession } from '../../support/browser.ts';
import { describeInBrowser } from '../../support/browser-suite.ts';
import { PersonRevisionsRepository } from '../../../src/repositories/person-revisions-repository.ts';
import { openConsoleHarness, openSessionPage, type ConsoleHarness } from './support/console-harness.ts';

const SHOTS = join(SCREENSHOT_DIRECTORY, 'reading');
const VIEWPORTS = [
  { width: 400, height: 860 },
  { width: 1440, height: 900 },
] as const;

/** True when the page scrolls sideways (the thing a phone reader hates most). */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
/** Marks the elements `selector` finds, so a later look tells whether a redraw kept them or put new ones in their place. */
const markElements = (page: Page, selector: string) =>
  page.evaluate((found) => document.querySelectorAll(found).forEach((element) => ((element as unknown as { kept?: boolean }).kept = true)), selector);
/** For each element `selector` finds, whether it is one that `markElements` marked. */
const markedElements = (page: Page, selector: string) =>
  page.evaluate((found) => Array.from(document.querySelectorAll(found), (element) => (element as unknown as { kept?: boolean }).kept === true), selector);

describeInBrowser('console: what a person reads, at 400 and 1440 px, light and dark', () => {
  describe.each(VIEWPORTS)('at $width px', (viewport) => {
    let harness: ConsoleHarness;
    let browser: BrowserSession;
    let errors: string[];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      harness = await openConsoleHarness();
      await harness.server.start();
      browser = await launchBrowser({ viewport });
      errors = collectPageErrors(browser.page);
    });
    afterAll(async () => {
      await browser?.close();
      await harness?.close();
    });

    it('renders markdown everywhere, keeps notes in place across a reload, numbers messages per session and links citations', async () => {
      const { page } = browser;
      // Enter submits the topic, as in a chat app.
      await openSessionPage(page, harness.server.url, 'Shipping weekly without burning out');
      const planner = page.locator('.message[data-speaker="Planner"]').first();
      expect(await planner.locator('.text ol li').count()).toBe(2);
      expect(await scrollsSideways(page)).toBe(false);

      await page.locator('#message-input').fill('!help');
      await page.locator('#message-input').press('Enter');
      const note = page.locator('.message.note').first();
      await note.waitFor();
      expect(await note.locator('strong').innerText()).toBe('Commands');
      expect(await note.locator('li code').count()).toBe(2);
      expect(await note.locator('pre').innerText()).toContain('!config maxMessages 40');
      expect(await note.innerText()).toContain('<script>');
      expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();

      await page.locator('#message-input').fill('Five engineers, **late nights**');
      await page.locator('#message-input').press('Enter');
      await page.locator('#approve-plan').click();
      await page.locator('.message.speaker-participant').nth(2).waitFor();
      // The note stays where it was said: after the Planner's questions, before the answer that followed it.
      await page.reload();
      await page.locator('.message.speaker-participant').nth(2).waitFor();
      const order = await page
        .locator('#transcript > .message')
        .evaluateAll((nodes) => nodes.map((node) => (node.classList.contains('note') ? 'note' : ((node as HTMLElement).dataset.speaker ?? '?'))));
      expect(order.slice(0, 4)).toEqual(['Host', 'Planner', 'note', 'Host']);

      const numbers = await page.locator('#transcript .message[data-number] .number').allInnerTexts();
      expect(numbers).toEqual(numbers.map((_, index) => `#${index + 1}`));
      expect(await page.locator('#session-counts').innerText()).toContain(`${numbers.length} messages`);
      expect(await page.locator('.session-title').innerText()).not.toMatch(/\bnull\b|undefined/);

      const record = page.locator('#record');
      expect(await record.locator('table td.align-right').innerText()).toBe('1');
      expect(await record.locator('em').innerText()).toBe('The record cites messages by number.');
      expect(await record.locator('a[href^="javascript"]').count()).toBe(0);
      // The next steps show their boxes, as in Notion, not the markdown's brackets.
      expect((await record.locator('li').allInnerTexts()).slice(-2)).toEqual(['☐ Pilot the async doc — Ana', '☑ Agree on a TTL — Bo']);
      await record.locator('a.cite[data-number="3"]').click();
      await page.locator('.message.highlight[data-number="3"]').waitFor();
      // The header, the usage table and the limits read the same totals, and follow a new turn without a reload.
      const agree = async () => {
        // Each of the three follows the session's events on its own, so a read during a turn can catch one a step
        // ahead: read all three in one evaluation, once they show one total (a page whose three never agree still
        // fails, on this wait). Reading them again afterwards, one by one, would race the turn that goes on.
        const agreed = await page.waitForFunction(() => {
          const text = (selector: string) => (document.querySelector(selector) as HTMLElement | null)?.innerText ?? '';
          const total = /([\d,]+) tokens/.exec(text('#session-counts'))?.[1];
          const same = total !== undefined && text('#usage-total-tokens') === total && text('[data-limit="tokens"]').includes(`${total} /`);
          return same ? total : undefined;
        });
        const tokens = await agreed.jsonValue();
        expect(tokens).toMatch(/^[\d,]+$/);
        return tokens;
      };
      const before = await agree();
      await page.locator('#message-input').fill('One more thought: demos on Fridays.');
      await page.locator('#message-input').press('Enter');
      await page.locator('.message.speaker-participant').nth(5).waitFor();
      await page.waitForFunction((previous) => !document.querySelector('#session-counts')?.textContent?.includes(`${previous} tokens`), before);
      expect(await agree()).not.toBe(before);
      await page.screenshot({ path: join(SHOTS, `session-${viewport.width}.png`), fullPage: false });
      expect(await scrollsSideways(page)).toBe(false);
      expect(errors).toEqual([]);
    });

    it('switches to dark by the system setting and by the toggle, and stays readable without sideways scroll on every page', async () => {
      const { page } = browser;
      const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${harness.server.url}/#/`);
      await page.locator('#sessions-table').waitFor();
      const dark = await background();
      await page.locator('#theme-toggle').click(); // system -> dark
      await page.locator('#theme-toggle').click(); // dark -> light
      expect(await page.locator('#theme-toggle').innerText()).toBe('Theme: light');
      const light = await background();
      expect(dark).not.toBe(light);
      expect(light).toBe('rgb(245, 246, 250)');
      await page.locator('#theme-toggle').click(); // back to the system's (dark)
      expect(await background()).toBe(dark);

      const session = (await harness.sessions.listRecent(1))[0];
      const traceId = (await harness.messages.listForSession(session?.id ?? '')).find((message) => message.traceId)?.traceId;
      // A hash change keeps the document and its page until `hashchange` draws the next one: wait for an element of
      // the page asked for (`main h2` was the page before's too), or the sideways check reads that one.
      const pages: [hash: string, drawn: string][] = [
        ['#/', '#sessions-table'],
        [`#/sessions/${session?.id}`, '#session-topic'],
        [`#/traces/${traceId}`, '#trace-name'],
        ['#/traces', '#trace-results'],
        [`#/sessions/${session?.id}/documents/record`, '#document-title'],
      ];
      for (const [hash, drawn] of pages) {
        await page.goto(`${harness.server.url}/${hash}`);
        await page.locator(`main ${drawn}`).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await scrollsSideways(page), hash).toBe(false);
      }
      await page.goto(`${harness.server.url}/#/traces/${traceId}`);
      await page.locator('#waterfall[data-rendered="true"]').waitFor();
      // Axis labels never run into each other.
      const axis = await page
        .locator('.wf-axis > span:visible')
        .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect()).map((box) => [box.left, box.right]));
      for (let index = 1; index < axis.length; index += 1)
        expect((axis[index] as number[])[0]).toBeGreaterThanOrEqual((axis[index - 1] as number[])[1] as number);
      await page.screenshot({ path: join(SHOTS, `trace-dark-${viewport.width}.png`) });
      await page.emulateMedia({ colorScheme: 'light' });
      expect(errors).toEqual([]);
    });

    it('exports a transcript as markdown and JSON, finds text across sessions and within a transcript, and closes the composer of an ended session', async () => {
      const { page } = browser;
      const session = (await harness.sessions.listRecent(1))[0];
      const id = session?.id ?? '';
      const markdown = await (await fetch(`${harness.server.url}/api/sessions/${id}/export?format=md`)).text();
      expect(markdown).toMatch(/^# Shipping weekly without burning out/);
      expect(markdown).toContain('### #1 Host');
      const json = (await (await fetch(`${harness.server.url}/api/sessions/${id}/export?format=json`)).json()) as { messages: { number: number }[] };
      expect(json.messages.map((message) => message.number)).toEqual(json.messages.map((_, index) => index + 1));

      await page.goto(`${harness.server.url}/#/?q=late%20nights`);
      await page.locator('#search-messages .search-hit').first().waitFor();
      await page.locator('#search-messages .search-hit a').first().click();
      await page.locator('.message.highlight[data-speaker="Host"]').waitFor();

      await page.locator('#find-in-transcript').fill('Friday demo');
      expect(await page.locator('#find-count').innerText()).toBe('6 found');
      expect(await page.locator('#transcript > .message:visible').count()).toBe(6);
      await page.locator('#find-in-transcript').fill('');

      await harness.sessions.update(id, { status: 'completed', endedAt: harness.clock.now(), endReason: 'goals met' }, harness.clock.now());
      harness.events.publish({ type: 'session', session: (await harness.sessions.findById(id))! });
      await page.locator('#composer-ended').waitFor();
      expect(await page.locator('#message-input').isDisabled()).toBe(true);
      expect(errors).toEqual([]);
    });

    it('shows the edited text of a message its author edited, marked, and drops one they deleted', async () => {
      const { page } = browser;
      const session = (await harness.sessions.listRecent(1))[0]!;
      const people = (await harness.messages.listForSession(session.id)).filter((message) => message.speaker.kind === 'human');
      const [edited, deleted] = [people[0]!, people[1]!];
      await page.goto(`${harness.server.url}/#/sessions/${session.id}`);
      // The page before showed this session too (`?n=`), and a hash change keeps it until the new one is drawn: a
      // fresh load, so the wait below finds the transcript that is observed and marked, not one about to go.
      await page.reload();
      await page.locator(`#m-${deleted.id}`).waitFor();
      // Every message node the update takes out of the transcript; only the two that changed may be among them.
      await page.evaluate(() => {
        const removed: string[] = [];
        (window as unknown as { __removed: string[] }).__removed = removed;
        new MutationObserver((records) => {
          for (const record of records) record.removedNodes.forEach((node) => removed.push((node as HTMLElement).id || '(no id)'));
        }).observe(document.querySelector('#transcript')!, { childList: true });
      });
      // The plan's panel does not change with a person's edit: it must be the same element after the redraw.
      await markElements(page, '#side > :first-child');
      // The header's counts change with the deletion; its link to the traces must stay the same element.
      await markElements(page, '#session-traces');
      const countsBefore = await page.locator('#session-counts').innerText();
      const revisions = new PersonRevisionsRepository(harness.database.db);
      const revised = (await revisions.revise(edited.id, `${edited.text} (edited: weekly, not daily)`, harness.clock.now()))!;
      harness.events.publish({ type: 'message', message: revised });
      const removed = (await revisions.remove(deleted.id, harness.clock.now()))!;
      harness.events.publish({ type: 'message', message: { ...removed, deleted: true } });
      await page.locator(`#m-${edited.id} .meta .edited`).waitFor();
      expect(await page.locator(`#m-${edited.id} .text`).innerText()).toContain('(edited: weekly, not daily)');
      await page.locator(`#m-${deleted.id}`).waitFor({ state: 'detached' });
      // A message that did not change stays in place: taken out and put back, a click on it was lost.
      const takenOut = await page.evaluate(() => (window as unknown as { __removed: string[] }).__removed);
      expect(takenOut.length).toBeGreaterThan(0);
      expect(takenOut.filter((id) => id !== `m-${edited.id}` && id !== `m-${deleted.id}`)).toEqual([]);
      expect(await markedElements(page, '#side > :first-child')).toEqual([true]);
      await expect.poll(() => page.locator('#session-counts').innerText()).not.toBe(countsBefore);
      expect(await markedElements(page, '#session-traces')).toEqual([true]);
      expect(errors).toEqual([]);
    });

    it('keeps the sessions list current as messages come, its links staying the same elements', async () => {
      const { page } = browser;
      const session = (await harness.sessions.listRecent(1))[0]!;
      await page.goto(`${harness.server.url}/#/`);
      const row = page.locator(`#sessions-table tr[data-session-id="${session.id}"]`);
      await row.waitFor();
      const countsBefore = await row.locator('td.number').first().innerText();
      await markElements(page, '#sessions-table a');
      const { message } = await harness.messages.insert(
        { sessionId: session.id, speaker: { kind: 'human', name: 'Ana', id: 'u-ana' }, role: 'user', text: 'One more thought.', deliveryStatus: 'delivered' },
        harness.clock.now(),
      );
      harness.events.publish({ type: 'message', message });
      await expect.poll(() => row.locator('td.number').first().innerText()).not.toBe(countsBefore);
      const kept = await markedElements(page, '#sessions-table a');
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.every(Boolean)).toBe(true);
      expect(errors).toEqual([]);
    });

    it('refreshes the sessions list at most once a second while a session talks, and ends current', async () => {
      // A page of its own with the browser's clock in the test's hands: the second between refreshes is not waited out.
      const page = await browser.page.context().newPage();
      try {
        await page.clock.install();
        const session = (await harness.sessions.listRecent(1))[0]!;
        await page.goto(`${harness.server.url}/#/`);
        const row = page.locator(`#sessions-table tr[data-session-id="${session.id}"]`);
        await row.waitFor();
        const asked: string[] = [];
        page.on('request', (request) => {
          if (new URL(request.url()).pathname === '/api/sessions') asked.push(request.url());
        });
        const count = async () => Number((await row.locator('td.number').first().innerText()).replace(/\D/g, ''));
        const before = await count();
        // Ten messages over a second of the page's time: each once asked for the whole list again.
        for (let index = 0; index < 10; index += 1) {
          const { message } = await harness.messages.insert(
            {
              sessionId: session.id,
              speaker: { kind: 'human', name: 'Ana', id: 'u-ana' },
              role: 'user',
              text: `Thought ${index}.`,
              deliveryStatus: 'delivered',
            },
            harness.clock.now(),
          );
          harness.events.publish({ type: 'message', message });
          await page.waitForTimeout(20);
          await page.clock.runFor(100);
        }
        await expect
          .poll(async () => {
            await page.clock.runFor(500);
            return count();
          })
          .toBe(before + 10);
        expect(asked.length).toBeGreaterThan(0);
        expect(asked.length).toBeLessThanOrEqual(3);
      } finally {
        await page.close();
      }
    });

    it('shows a file shared in Discord by its name, linked to its message there, never to its address that expires', async () => {
      const { page } = browser;
      const session = (await harness.sessions.listRecent(1))[0]!;
      const address = 'https://cdn.discordapp.com/attachments/1/2/mockup_v2.png?ex=1&is=2&hm=3';
      const messageUrl = 'https://discord.com/channels/1/2/3';
      const { message } = await harness.messages.insert(
        {
          sessionId: session.id,
          speaker: { kind: 'human', name: 'Ana', id: 'u-ana' },
          role: 'user',
          text: `Here is the mockup.\n[attached image: mockup_v2.png <${address}>]`,
          deliveryStatus: 'delivered',
          externalUrl: messageUrl,
        },
        harness.clock.now(),
      );
      await page.goto(`${harness.server.url}/#/sessions/${session.id}`);
      await page.reload();
      const text = page.locator(`#m-${message.id} .text`);
      await text.waitFor();
      expect(await text.innerText()).toMatch(/^Here is the mockup\.\n📎 mockup_v2\.png \(image\) — open in Discord$/);
      expect(await text.locator('a').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))).toEqual([messageUrl]);
      expect(await page.locator(`#m-${message.id} a[href*="cdn.discordapp.com"]`).count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('keeps every row of the sessions list in place when a new session comes first', async () => {
      const { page } = browser;
      await page.goto(`${harness.server.url}/#/`);
      await page.locator('#sessions-table').waitFor();
      const rows = await page.locator('#sessions-table tbody tr').count();
      await markElements(page, '#sessions-table a');
      const later = new Date(harness.clock.now().getTime() + 3_600_000);
      const session = await harness.sessions.create(
        {
          id: 'ses_newest',
          parentId: null,
          transport: 'local',
          roomId: 'room-newest',
          roomUrl: null,
          originChannelId: null,
          originMessageId: null,
          topic: 'A newer question',
          status: 'planning',
          createdBy: { id: 'u-ana', name: 'Ana' },
        },
        later,
      );
      harness.events.publish({ type: 'session', session });
      await expect.poll(() => page.locator('#sessions-table tbody tr').count()).toBe(rows + 1);
      expect(await page.locator('#sessions-table tbody tr').first().getAttribute('data-session-id')).toBe('ses_newest');
      const kept = await markedElements(page, '#sessions-table tbody tr:not(:first-child) a');
      expect(kept.length).toBe(rows);
      expect(kept.every(Boolean)).toBe(true);
      expect(errors).toEqual([]);
    });
  });
});
