import { describe, expect, it } from 'vitest';
import { assistantMessage, modelResponder, ScriptedModel } from '@openai/agents/testing';
import type { Speaker } from '../../../src/core/domain.ts';
import { fakeBlocksToMarkdown, markdownToFakeBlocks } from '../../fakes/notion/fake-markdown.ts';
import { inputText, scriptedModels } from './documentation-harness.ts';
import { notionSuitePerTest } from './notion-suite.ts';

const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
const GPT: Speaker = { kind: 'participant', name: 'GPT' };
const ANA_ADDS = 'Decision by Ana: the beta starts on 3 March.';

describe('a record people edit in Notion', () => {
  const suite = notionSuitePerTest();

  /** Lets the Scribe interval pass and runs what is due (the pass, the sync, and what they queue). */
  async function passes(): Promise<void> {
    await suite.clock.advance(60_000);
    for (let round = 0; round < 4; round += 1) await suite.harness.runDue();
  }

  const recordPage = () => {
    const [page] = suite.notion.store.findPagesByTitle('Detailed record');
    if (!page) throw new Error('no record page in Notion');
    return String(page.id);
  };
  const recordInNotion = () => fakeBlocksToMarkdown(suite.notion.store.pageContent(recordPage()));

  /** A person adds a line to the record's page in Notion's editor. */
  function personAdds(line: string): void {
    suite.notion.store.editAsPerson(recordPage(), markdownToFakeBlocks(`${recordInNotion()}\n\n${line}`));
  }

  async function sessionWithRecord(): Promise<void> {
    await suite.harness.newSession('ses_edit', 'Beta launch plan');
    await suite.harness.say('ses_edit', CLAUDE, 'Ship the beta to ten teams first.');
    await passes();
    const record = await suite.harness.documents.find('ses_edit', 'record');
    expect(record?.syncedVersion).toBe(record?.version);
  }

  it.each([
    ['the markdown endpoints', false],
    ['blocks (markdown refused)', true],
  ])("keeps a person's addition through %s: the next pass works the new messages into their version, and the Scribe is told", async (_, blocks) => {
    suite.notion.refuseMarkdown = blocks;
    await sessionWithRecord();
    personAdds(ANA_ADDS);
    await suite.harness.say('ses_edit', GPT, 'Collect feedback from the beta teams every week.');
    await passes();

    const inNotion = recordInNotion();
    expect(inNotion).toContain(ANA_ADDS);
    expect(inNotion).toContain('Collect feedback from the beta teams every week.');
    expect(inNotion).toContain('Ship the beta to ten teams first.');
    expect(suite.notion.store.findPagesByTitle('Detailed record')).toHaveLength(1);
    // The version written without her line never reached Notion; the pass that took hers up was told whose it is.
    const calls = suite.harness.models.scribe.calls.map(inputText);
    expect(calls.at(-1)).toContain('people edited it in Notion, so keep their wording and additions');
    expect(calls.at(-1)).toContain(ANA_ADDS);
    expect(calls.at(-1)).toContain('Collect feedback from the beta teams every week.');
    const local = await suite.harness.service.latestRecord('ses_edit');
    expect(local).toContain(ANA_ADDS);
    const record = await suite.harness.documents.find('ses_edit', 'record');
    expect(record?.syncedVersion).toBe(record?.version);
  });

  it('keeps them through later passes, and a page only the bot edited is replaced with no extra read', async () => {
    await sessionWithRecord();
    personAdds(ANA_ADDS);
    await suite.harness.say('ses_edit', GPT, 'Collect feedback from the beta teams every week.');
    await passes();
    const callsAfterTakingUp = suite.harness.models.scribe.calls.length;

    await suite.harness.say('ses_edit', CLAUDE, 'Publish the beta notes on Fridays.');
    const readsBefore = suite.notion.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/markdown')).length;
    await passes();

    expect(recordInNotion()).toContain(ANA_ADDS);
    expect(recordInNotion()).toContain('Publish the beta notes on Fridays.');
    // One pass for the one new message, not told of edits again; the page was last written by us, so not read back.
    expect(suite.harness.models.scribe.calls).toHaveLength(callsAfterTakingUp + 1);
    expect(inputText(suite.harness.models.scribe.calls.at(-1)!)).not.toContain('people edited it in Notion');
    const readsAfter = suite.notion.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/markdown')).length;
    expect(readsAfter - readsBefore).toBe(0);
  });

  it('a person who only looked (no change to the text) is not taken for an editor', async () => {
    await sessionWithRecord();
    suite.notion.store.editAsPerson(recordPage(), markdownToFakeBlocks(recordInNotion()));
    await suite.harness.say('ses_edit', GPT, 'Collect feedback from the beta teams every week.');
    await passes();
    expect(recordInNotion()).toContain('Collect feedback from the beta teams every week.');
    expect(suite.harness.models.scribe.calls.map(inputText).some((input) => input.includes('people edited it in Notion'))).toBe(false);
  });
});

describe("the record's next steps in Notion", () => {
  const FIRST_RECORD = '# Detailed record\n## Next steps\n- [ ] Ship the beta to ten teams (#1)\n## Discussion flow';
  const suite = notionSuitePerTest({ models: scriptedModels({ firstRecord: FIRST_RECORD }) });

  const recordPage = () => String(suite.notion.store.findPagesByTitle('Detailed record')[0]?.id);
  const toDos = () => suite.notion.store.pageContent(recordPage()).filter((block) => block.type === 'to_do');

  it.each([
    ['the markdown endpoints', false],
    ['blocks (markdown refused)', true],
  ])('are to-dos people tick through %s, and a ticked box stays ticked through the next pass', async (_, blocks) => {
    suite.notion.refuseMarkdown = blocks;
    await suite.harness.newSession('ses_steps', 'Beta launch plan');
    await suite.harness.say('ses_steps', CLAUDE, 'Ship the beta to ten teams first.');
    await suite.clock.advance(60_000);
    for (let round = 0; round < 4; round += 1) await suite.harness.runDue();
    expect(toDos().map((block) => block.payload.checked)).toEqual([false]);

    // Ana ticks the box in Notion; then the discussion goes on.
    const ticked = suite.notion.store
      .pageContent(recordPage())
      .map((block) => (block.type === 'to_do' ? { ...block, payload: { ...block.payload, checked: true } } : block));
    suite.notion.store.editAsPerson(recordPage(), ticked);
    await suite.harness.say('ses_steps', GPT, 'Collect feedback from the beta teams every week.');
    await suite.clock.advance(60_000);
    for (let round = 0; round < 4; round += 1) await suite.harness.runDue();

    expect(toDos().map((block) => block.payload.checked)).toEqual([true]);
    const local = await suite.harness.service.latestRecord('ses_steps');
    expect(local).toContain('- [x] Ship the beta to ten teams (#1)');
    expect(local).toContain('Collect feedback from the beta teams every week.');
  });
});

describe('a Scribe that drops ticks', () => {
  const FIRST_RECORD = '# Detailed record\n## Next steps\n- [ ] Ship the beta to ten teams (#1)\n## Discussion flow';
  // It never keeps its previous record: each pass writes the first record again, its box open, as a careless model may.
  const forgetful = scriptedModels();
  const scribe = new ScriptedModel(
    Array.from({ length: 20 }, () =>
      modelResponder((call) => {
        const cited = [...inputText(call).matchAll(/^#(\d+) \[([^\]]+)\]: (.*)$/gm)].map((match) => `- ${match[2]} said (#${match[1]}): ${match[3]}`);
        return [assistantMessage(`${FIRST_RECORD}\n- Claude said (#1): Ship the beta to ten teams first.\n${cited.join('\n')}`)];
      }),
    ),
  );
  const suite = notionSuitePerTest({ models: { ...forgetful, scribe, role: (role) => (role === 'scribe' ? scribe : forgetful.tldr) } });

  it('does not open a step a person ticked in Notion', async () => {
    await suite.harness.newSession('ses_forget', 'Beta launch plan');
    await suite.harness.say('ses_forget', CLAUDE, 'Ship the beta to ten teams first.');
    await suite.clock.advance(60_000);
    for (let round = 0; round < 4; round += 1) await suite.harness.runDue();
    const page = String(suite.notion.store.findPagesByTitle('Detailed record')[0]?.id);
    const ticked = suite.notion.store
      .pageContent(page)
      .map((block) => (block.type === 'to_do' ? { ...block, payload: { ...block.payload, checked: true } } : block));
    suite.notion.store.editAsPerson(page, ticked);
    await suite.harness.say('ses_forget', GPT, 'Collect feedback from the beta teams every week.');
    // Long enough for every pass and sync the edit sets off (the pass that takes it up, and its sync).
    for (let round = 0; round < 6; round += 1) {
      await suite.clock.advance(60_000);
      await suite.harness.runDue();
    }

    expect(scribe.calls.length).toBeGreaterThanOrEqual(2);
    const toDos = suite.notion.store.pageContent(page).filter((block) => block.type === 'to_do');
    expect(toDos.map((block) => block.payload.checked)).toEqual([true]);
    expect(await suite.harness.service.latestRecord('ses_forget')).toContain('- [x] Ship the beta to ten teams (#1)');
  });
});
