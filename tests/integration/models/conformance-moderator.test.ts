import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModeratorAgent } from '../../../src/agents/moderator/moderator-agent.ts';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';
import { askModerator, type CheckFacts } from '../../../src/services/moderation/moderator-run.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { FakeHost } from '../../support/fake-moderation-host.ts';
import { conformanceCatalog, conformanceRows, driveClock, partition, ROW_NAMES, type RowName } from './conformance-table.ts';

let fake: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal', honourToolChoice: false });
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

const VERDICT = { action: 'continue', drifting: false, objectivesMet: false, message: '', target: '', reason: 'On course.', quality: 7 };
const rows = conformanceRows({ tool: 'check_limits', toolArgs: {}, json: VERDICT, text: 'Everything is on course, carry on.' });

/** A plain-text verdict, a refusal, a cut verdict and request errors leave no verdict: the service uses its plain rules. */
const { recovers, fails } = partition(ROW_NAMES, [
  'ignores the tool',
  'refusal',
  'refusal as text',
  'finish_reason length mid-answer',
  '400 context length exceeded',
  '402 out of credits',
  '404 model not found',
]);

async function check(row: RowName) {
  const { clock, models } = conformanceCatalog(fake);
  const prompts = new PromptLibrary();
  const agent = createModeratorAgent({ model: models.role('moderator'), prompts });
  const host = new FakeHost();
  host.say(['Redis in front of the API.', 'Invalidate on writes.', 'What about CDN caching?']);
  const facts: CheckFacts = {
    session: host.session,
    plan: host.session.plan!,
    trigger: 'interval',
    messages: host.messages,
    limits: await host.limitsReport(),
    similarity: 0.8,
    imbalance: null,
    settings: { checkInterval: 10, driftThreshold: 0.6, maxDriftWarnings: 3, balanceCheck: true, qualityAssessment: true },
  };
  fake.script({ role: 'moderator' }, ...rows[row]);
  const { value, error } = await driveClock(
    clock,
    askModerator(agent, prompts, host.toolPorts(), facts, async () => true),
  );
  return { answer: value, thrown: error, models };
}

describe('Moderator conformance: a check always ends with a verdict or a typed failure, never a stuck session', () => {
  it.each(recovers)('%s -> a verdict', async (row) => {
    const { answer, thrown } = await check(row);
    expect(thrown).toBeUndefined();
    expect(answer?.error).toBeNull();
    expect(answer?.verdict?.action).toMatch(/^(continue|redirect|invite|hold|end)$/);
  });

  it.each(fails)('%s -> no verdict, a typed error for the log and trace (the service falls back to its rules)', async (row) => {
    const { answer, thrown } = await check(row);
    expect(thrown).toBeUndefined();
    expect(answer?.verdict).toBeNull();
    expect(answer?.error).toBeInstanceOf(Error);
    expect((answer?.error as Error).message.length).toBeGreaterThan(10);
  });

  it('a 400 (context too long) says so and never benches the Moderator', async () => {
    const { answer, models } = await check('400 context length exceeded');
    expect(answer?.error).toMatchObject({ code: 'model_unavailable', status: 400, message: expect.stringMatching(/longer than the context window/) });
    expect(models.breaker('moderator').consecutiveFailures).toBe(0);
  });

  it('402 and 404 name their cause', async () => {
    expect((await check('402 out of credits')).answer?.error).toMatchObject({ status: 402, message: expect.stringMatching(/run out of credits/) });
    expect((await check('404 model not found')).answer?.error).toMatchObject({ status: 404, message: expect.stringMatching(/was not found/) });
  });

  it('a cut-off verdict is a typed cut_off failure, not a schema error', async () => {
    expect((await check('finish_reason length mid-answer')).answer?.error).toMatchObject({ code: 'model_unavailable', reason: 'cut_off' });
  });

  it('a hang is abandoned at the deadline and asked again', async () => {
    const { answer } = await check('a hang past the timeout');
    expect(answer?.verdict).not.toBeNull();
    expect(fake.chats.length).toBeGreaterThanOrEqual(2);
  });
});
