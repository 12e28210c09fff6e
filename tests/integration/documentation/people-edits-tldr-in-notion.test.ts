import { describe, expect, it } from 'vitest';
import type { Speaker } from '../../../src/core/domain.ts';
import { fakeBlocksToMarkdown, markdownToFakeBlocks } from '../../fakes/notion/fake-markdown.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import { inputText } from './documentation-harness.ts';
import { notionSuitePerTest } from './notion-suite.ts';

const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
const GPT: Speaker = { kind: 'participant', name: 'GPT' };
const ANA_CORRECTS = 'Correction by Ana: the beta goes to eight teams, not ten.';

describe('a TLDR people edit in Notion', () => {
  const suite = notionSuitePerTest();

  /** Lets the TLDR interval pass and runs what is due (Scribe and TLDR passes, the syncs, and what they queue). */
  async function passes(): Promise<void> {
    await suite.clock.advance(601_000);
    // A TLDR pass waits (15 s at a time) for the record to reach Notion, which it reads back from there.
    for (let round = 0; round < 5; round += 1) {
      await suite.harness.runDue();
      await suite.clock.advance(15_000);
    }
  }

  const tldrPage = () => {
    const [page] = suite.notion.store.findPagesByTitle('TLDR');
    if (!page) throw new Error('no TLDR page in Notion');
    return String(page.id);
  };
  const tldrInNotion = () => fakeBlocksToMarkdown(suite.notion.store.pageContent(tldrPage()));
  const tldrCalls = () => suite.harness.models.tldr.calls.map(inputText);

  /** A person adds a line to the TLDR's page in Notion's editor. */
  function personAdds(line: string): void {
    suite.notion.store.editAsPerson(tldrPage(), markdownToFakeBlocks(`${tldrInNotion()}\n\n${line}`));
  }

  async function sessionWithTldr(): Promise<void> {
    await suite.harness.newSession('ses_tldr', 'Beta launch plan');
    await suite.harness.say('ses_tldr', CLAUDE, 'Ship the beta to ten teams first.');
    await passes();
    const tldr = await suite.harness.documents.find('ses_tldr', 'tldr');
    expect(tldr?.version).toBeGreaterThan(0);
    expect(tldr?.syncedVersion).toBe(tldr?.version);
  }

  it("is not overwritten when the record moves on: the next TLDR is made from the person's version, and says so", async () => {
    await sessionWithTldr();
    personAdds(ANA_CORRECTS);
    const callsBefore = tldrCalls().length;
    await suite.harness.say('ses_tldr', GPT, 'Collect feedback from the beta teams every week.');
    await passes();

    // The TLDR pass took Ana's version up before asking the model: one call, told whose words to keep.
    expect(tldrCalls()).toHaveLength(callsBefore + 1);
    const input = tldrCalls().at(-1)!;
    expect(input).toContain('People edited the TLDR in Notion. Keep their wording');
    expect(input).toContain(ANA_CORRECTS);
    expect(input).toContain('Collect feedback from the beta teams every week.');
    // What the model wrote from it reached Notion, over a page that was Ana's, on the one TLDR page.
    expect(suite.notion.store.findPagesByTitle('TLDR')).toHaveLength(1);
    const tldr = await suite.harness.documents.find('ses_tldr', 'tldr');
    expect(tldr?.syncedVersion).toBe(tldr?.version);
    expect(tldrInNotion()).toContain('The session explored the topic.');
  });

  it("a TLDR written before the sync met people's edits is not written over them: the sync has the pass take them up", async () => {
    await sessionWithTldr();
    await suite.harness.say('ses_tldr', GPT, 'Collect feedback from the beta teams every week.');
    // The Scribe pass, the record's sync and the TLDR pass run; Ana edits the page before the new TLDR's sync job runs.
    await suite.clock.advance(601_000);
    const before = (await suite.harness.documents.find('ses_tldr', 'tldr'))!.version;
    for (const queue of ['scribe:ses_tldr', 'notion:ses_tldr', 'tldr:ses_tldr']) await settleWithClock(suite.harness.worker.runQueue(queue), suite.clock);
    const written = (await suite.harness.documents.find('ses_tldr', 'tldr'))!;
    expect(written.version).toBe(before + 1);
    expect(written.syncedVersion).toBe(before);
    personAdds(ANA_CORRECTS);
    await passes();

    const input = tldrCalls().at(-1)!;
    expect(input).toContain(ANA_CORRECTS);
    expect(input).toContain('People edited the TLDR in Notion');
    const tldr = await suite.harness.documents.find('ses_tldr', 'tldr');
    expect(tldr?.syncedVersion).toBe(tldr?.version);
    expect(tldr?.metadata.peopleEditedInNotion).not.toBe(true);
  });

  it('!summary with nothing new shows the TLDR as people edited it, without a model call; untouched, it reads nothing back', async () => {
    await sessionWithTldr();
    const callsBefore = tldrCalls().length;
    const readsOf = () => suite.notion.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/markdown')).length;
    const readsBefore = readsOf();
    // Notion's request limiter waits on the manual clock.
    const summary = () => settleWithClock(suite.harness.service.freshSummary('ses_tldr'), suite.clock);
    expect(await summary()).not.toContain(ANA_CORRECTS);
    expect(readsOf()).toBe(readsBefore);

    personAdds(ANA_CORRECTS);
    expect(await summary()).toContain(ANA_CORRECTS);
    expect(tldrCalls()).toHaveLength(callsBefore);
    // Taken up as the newest version, already in Notion: nothing is written back over it.
    const tldr = await suite.harness.documents.find('ses_tldr', 'tldr');
    expect(tldr?.syncedVersion).toBe(tldr?.version);
    await passes();
    expect(tldrInNotion()).toContain(ANA_CORRECTS);
  });
});
