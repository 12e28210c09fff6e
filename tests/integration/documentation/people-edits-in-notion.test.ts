import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { fakeBlocksToMarkdown, markdownToFakeBlocks } from '../../fakes/notion/fake-markdown.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness, inputText, type DocumentationHarness } from './documentation-harness.ts';

const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
const GPT: Speaker = { kind: 'participant', name: 'GPT' };
const ANA_ADDS = 'Decision by Ana: the beta starts on 3 March.';

describe('a record people edit in Notion', () => {
  let handle: DatabaseHandle;
  let clock: ManualClock;
  let notion: FakeNotion;
  let harness: DocumentationHarness;

  beforeEach(async () => {
    handle = await openAppTestDatabase();
    clock = new ManualClock();
    notion = await startFakeNotion({ clock });
    harness = createDocumentationHarness(handle, { notion, clock });
  });
  afterEach(async () => {
    await notion.close();
    await handle.close();
  });

  /** Lets the Scribe interval pass and runs what is due (the pass, the sync, and what they queue). */
  async function passes(): Promise<void> {
    await clock.advance(60_000);
    for (let round = 0; round < 4; round += 1) await harness.runDue();
  }

  const recordPage = () => {
    const [page] = notion.store.findPagesByTitle('Detailed record');
    if (!page) throw new Error('no record page in Notion');
    return String(page.id);
  };
  const recordInNotion = () => fakeBlocksToMarkdown(notion.store.pageContent(recordPage()));

  /** A person adds a line to the record's page in Notion's editor. */
  function personAdds(line: string): void {
    notion.store.editAsPerson(recordPage(), markdownToFakeBlocks(`${recordInNotion()}\n\n${line}`));
  }

  async function sessionWithRecord(): Promise<void> {
    await harness.newSession('ses_edit', 'Beta launch plan');
    await harness.say('ses_edit', CLAUDE, 'Ship the beta to ten teams first.');
    await passes();
    const record = await harness.documents.find('ses_edit', 'record');
    expect(record?.syncedVersion).toBe(record?.version);
  }

  it.each([
    ['the markdown endpoints', false],
    ['blocks (markdown refused)', true],
  ])("keeps a person's addition through %s: the next pass works the new messages into their version, and the Scribe is told", async (_, blocks) => {
    notion.refuseMarkdown = blocks;
    await sessionWithRecord();
    personAdds(ANA_ADDS);
    await harness.say('ses_edit', GPT, 'Collect feedback from the beta teams every week.');
    await passes();

    const inNotion = recordInNotion();
    expect(inNotion).toContain(ANA_ADDS);
    expect(inNotion).toContain('Collect feedback from the beta teams every week.');
    expect(inNotion).toContain('Ship the beta to ten teams first.');
    expect(notion.store.findPagesByTitle('Detailed record')).toHaveLength(1);
    // The version written without her line never reached Notion; the pass that took hers up was told whose it is.
    const calls = harness.models.scribe.calls.map(inputText);
    expect(calls.at(-1)).toContain('people edited it in Notion, so keep their wording and additions');
    expect(calls.at(-1)).toContain(ANA_ADDS);
    expect(calls.at(-1)).toContain('Collect feedback from the beta teams every week.');
    const local = await harness.service.latestRecord('ses_edit');
    expect(local).toContain(ANA_ADDS);
    const record = await harness.documents.find('ses_edit', 'record');
    expect(record?.syncedVersion).toBe(record?.version);
  });

  it('keeps them through later passes, and a page only the bot edited is replaced with no extra read', async () => {
    await sessionWithRecord();
    personAdds(ANA_ADDS);
    await harness.say('ses_edit', GPT, 'Collect feedback from the beta teams every week.');
    await passes();
    const callsAfterTakingUp = harness.models.scribe.calls.length;

    await harness.say('ses_edit', CLAUDE, 'Publish the beta notes on Fridays.');
    const readsBefore = notion.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/markdown')).length;
    await passes();

    expect(recordInNotion()).toContain(ANA_ADDS);
    expect(recordInNotion()).toContain('Publish the beta notes on Fridays.');
    // One pass for the one new message, not told of edits again; the page was last written by us, so not read back.
    expect(harness.models.scribe.calls).toHaveLength(callsAfterTakingUp + 1);
    expect(inputText(harness.models.scribe.calls.at(-1)!)).not.toContain('people edited it in Notion');
    const readsAfter = notion.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/markdown')).length;
    expect(readsAfter - readsBefore).toBe(0);
  });

  it('a person who only looked (no change to the text) is not taken for an editor', async () => {
    await sessionWithRecord();
    notion.store.editAsPerson(recordPage(), markdownToFakeBlocks(recordInNotion()));
    await harness.say('ses_edit', GPT, 'Collect feedback from the beta teams every week.');
    await passes();
    expect(recordInNotion()).toContain('Collect feedback from the beta teams every week.');
    expect(harness.models.scribe.calls.map(inputText).some((input) => input.includes('people edited it in Notion'))).toBe(false);
  });
});
