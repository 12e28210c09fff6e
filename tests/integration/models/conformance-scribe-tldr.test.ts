import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';
import { runScribe, runTldr } from '../../../src/services/documentation/agent-runs.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { conformanceCatalog, conformanceRows, driveClock, partition, ROW_NAMES, type RowName } from './conformance-table.ts';

let fake: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal', honourToolChoice: false });
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

const prompts = new PromptLibrary();
const RECORD = '# Record\n\n- Claude (#1): Redis in front of the API.\n- ChatGPT (#2): Invalidate on writes.\n- Grok (#3): Try CDN caching first.';
const TLDR = {
  summary: 'Cache at the edge, invalidate on writes.',
  keyFindings: ['Redis (#1)', 'Invalidate (#2)', 'CDN (#3)'].map((finding) => ({ finding, sources: [finding.slice(-3, -1)] })),
};

async function pass<T>(
  role: 'scribe' | 'tldr',
  row: RowName,
  action: (deps: { models: ReturnType<typeof conformanceCatalog>['models']; prompts: PromptLibrary }) => Promise<T>,
) {
  const { clock, models } = conformanceCatalog(fake);
  const shape =
    role === 'scribe'
      ? { tool: 'update_notion', toolArgs: { document: 'record', markdown: RECORD }, json: { record: RECORD }, text: RECORD }
      : { tool: 'read_notion', toolArgs: { document: 'record' }, json: TLDR, text: `${TLDR.summary}\n\n- Redis (#1)\n- Invalidate (#2)\n- CDN (#3)` };
  fake.script({ role }, ...conformanceRows(shape)[row]);
  return driveClock(clock, action({ models, prompts }));
}

/** Failing Scribe rows: the pass then keeps the previous record and writes plain statistics (its fallback). */
const scribe = partition(ROW_NAMES, [
  'refusal',
  'refusal as text',
  'finish_reason length mid-answer',
  'empty content',
  '400 context length exceeded',
  '402 out of credits',
  '404 model not found',
]);

describe('Scribe conformance: a record, or a failure the pass turns into a statistics record', () => {
  it.each(scribe.recovers)('%s -> a record', async (row) => {
    const { value, error } = await pass('scribe', row, (deps) => runScribe(deps, 's1', 'Caching', `Topic: caching\n\n${RECORD}`, new AbortController().signal));
    expect(error).toBeUndefined();
    expect(value?.value.trim()).not.toBe('');
    expect(value?.value).not.toMatch(/^I'm sorry/);
  });

  it.each(scribe.fails)('%s -> a failure (never a refusal or a cut record stored as the record)', async (row) => {
    const { error } = await pass('scribe', row, (deps) => runScribe(deps, 's1', 'Caching', `Topic: caching\n\n${RECORD}`, new AbortController().signal));
    expect(error).toBeInstanceOf(Error);
  });
});

/** Failing TLDR rows: the job fails and is retried later; the previous TLDR stays. */
const tldr = partition(ROW_NAMES, [
  'refusal',
  'refusal as text',
  'finish_reason length mid-answer',
  '400 context length exceeded',
  '402 out of credits',
  '404 model not found',
]);

describe('TLDR conformance: a summary with 3-5 findings, or a typed failure', () => {
  it.each(tldr.recovers)('%s -> a summary with 3 to 5 findings', async (row) => {
    const { value, error } = await pass('tldr', row, (deps) => runTldr(deps, 's1', RECORD, new AbortController().signal));
    expect(error).toBeUndefined();
    expect(value?.value.summary.trim()).not.toBe('');
    expect(value?.value.keyFindings.length).toBeGreaterThanOrEqual(3);
    expect(value?.value.keyFindings.length).toBeLessThanOrEqual(5);
  });

  it.each(tldr.fails)('%s -> a failure', async (row) => {
    const { error } = await pass('tldr', row, (deps) => runTldr(deps, 's1', RECORD, new AbortController().signal));
    expect(error).toBeInstanceOf(Error);
  });

  it('the TLDR schema itself demands 3 to 5 findings, so a literal model gives 3', async () => {
    const { value } = await pass('tldr', 'content null, only reasoning', (deps) => runTldr(deps, 's1', RECORD, new AbortController().signal));
    const schema = JSON.stringify(fake.chats.at(-1)?.body.response_format);
    expect(schema).toMatch(/"minItems":3/);
    expect(schema).toMatch(/"maxItems":5/);
    expect(value?.value.keyFindings).toHaveLength(3);
  });
});
