import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { setTraceProcessors } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall, modelError, modelResponder } from '@openai/agents/testing';
import { installSpanCollector } from '../../agents/guardrails/span-collector.ts';
import type { LedgerReview } from '../../../../src/core/service-ports.ts';
import { buildService, FakeHost, verdict } from './moderation-fixtures.ts';

const collector = installSpanCollector();
afterAll(() => setTraceProcessors([]));
beforeEach(() => collector.clear());

const ON_TOPIC = [
  'Redis in front of the API cuts latency',
  'Invalidate the cache on writes',
  'A CDN cache for public responses',
  'TTL of 60 seconds for lists',
];
const OFF_TOPIC = ['Did anyone watch the football final?', 'The goalkeeper was amazing', 'I prefer basketball anyway', 'Best pizza toppings?'];

/** Plan text and on-topic talk point one way, off-topic talk another. */
async function keywordEmbed(texts: string[]): Promise<number[][]> {
  return texts.map((text) => (/(football|goalkeeper|basketball|pizza)/i.test(text) ? [0.1, 1] : [1, 0.1]));
}

function verdictReply(overrides: Parameters<typeof verdict>[0]) {
  return [assistantMessage(JSON.stringify(verdict(overrides)))];
}

const WRAP_UP_MODERATOR = [
  assistantMessage('Quality: 4/10. Objective 1 partly met; objective 2 not met.'),
  functionCall('transfer_to_Scribe', {}, { callId: 'h1' }),
];

function repeat(texts: string[], count: number): string[] {
  return Array.from({ length: count }, (_, index) => texts[index % texts.length] ?? '');
}

describe('ModerationService checks', () => {
  it('waits for MODERATOR_CHECK_INTERVAL messages, then redirects a drift confirmed by the model', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'redirect', drifting: true, message: 'Fun detour! Back to caching: which layer do we pick?' })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(OFF_TOPIC, 9));
    expect((await service.afterMessage('session-1')).action).toBe('skipped');
    host.say(repeat(OFF_TOPIC, 1));
    const outcome = await service.afterMessage('session-1');
    expect(outcome).toMatchObject({ action: 'redirect', modelCalled: true });
    expect(outcome.similarity).toBeLessThan(0.6);
    expect(host.posts).toEqual(['Fun detour! Back to caching: which layer do we pick?']);
    expect(host.session.moderationState).toMatchObject({ driftWarnings: 1, lastCheckAtMessage: 10 });
    const input = JSON.stringify(model.firstCall?.request.input);
    expect(input).toContain('Pick a caching layer for API responses');
    expect(input).toContain('football');
  });

  it('skips the model while embeddings say on topic, and reviews progress every other check', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'continue' })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(ON_TOPIC, 10));
    expect(await service.afterMessage('session-1')).toMatchObject({ action: 'continue', modelCalled: false });
    host.say(repeat(ON_TOPIC, 10));
    expect(await service.afterMessage('session-1')).toMatchObject({ action: 'continue', modelCalled: true });
    expect(model.calls).toHaveLength(1);
    expect(host.posts).toEqual([]);
    expect(service.moderatorModelCalls).toBe(1);
  });

  it('after a round, says whether it may have changed the session, so the coordinator reads it again only then', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'continue' })]);
    let review: LedgerReview = 'nothing';
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed, ledgerCheck: async () => review });
    host.say(repeat(ON_TOPIC, 9));
    // No check due and a ledger that did nothing: unchanged.
    expect(await service.afterRound(host.session)).toBe(false);
    expect(host.session.moderationState.lastCheckAtMessage).toBe(0);
    // The ledger invited dissent (a post): changed.
    review = 'invited';
    expect(await service.afterRound(host.session)).toBe(true);
    // A check is due: it runs (without the model, on topic) and saves its state: changed.
    review = 'nothing';
    host.say(repeat(ON_TOPIC, 1));
    expect(await service.afterRound(host.session)).toBe(true);
    expect(host.session.moderationState.lastCheckAtMessage).toBe(10);
    expect(model.calls).toHaveLength(0);
    // The ledger closed the session: changed, and no check runs after the close.
    review = 'closed';
    host.say(repeat(ON_TOPIC, 10));
    expect(await service.afterRound(host.session)).toBe(true);
    expect(host.session.moderationState.lastCheckAtMessage).toBe(10);
  });

  it('does not act when the model does not confirm suspected drift', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'continue', drifting: false })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(OFF_TOPIC, 10));
    expect(await service.afterMessage('session-1')).toMatchObject({ action: 'continue', modelCalled: true });
    expect(host.posts).toEqual([]);
    expect(host.session.moderationState.driftWarnings).toBe(0);
  });

  it('without embeddings, asks the model at every check and says so at start-up', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({}), verdictReply({})]);
    const { service } = buildService({ host, moderatorModel: model, embed: async () => null });
    expect(await service.announceDriftMode()).toBe('model_only');
    host.say(repeat(ON_TOPIC, 10));
    await service.afterMessage('session-1');
    host.say(repeat(ON_TOPIC, 10));
    await service.afterMessage('session-1');
    expect(model.calls).toHaveLength(2);
  });

  it('invites a silent participant in', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'invite', target: 'Grok', message: 'Grok, what would you cache first?' })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(ON_TOPIC, 10), ['Claude', 'ChatGPT']);
    expect(await service.afterMessage('session-1')).toMatchObject({ action: 'invite', posted: 'Grok, what would you cache first?' });
    expect(host.invited).toEqual(['Grok']);
    expect(JSON.stringify(model.firstCall?.request.input)).toContain('Quiet participant: Grok');
  });

  it('invites a silent participant with a plain message when the model does not', async () => {
    const host = new FakeHost();
    const { service } = buildService({ host, moderatorModel: new ScriptedModel([verdictReply({ action: 'continue' })]), embed: keywordEmbed });
    host.say(repeat(ON_TOPIC, 10), ['Claude', 'ChatGPT']);
    const outcome = await service.afterMessage('session-1');
    expect(outcome.action).toBe('invite');
    expect(host.posts[0]).toMatch(/^Grok, we have not heard much from you/);
  });

  it('ends the session early when the objectives are met', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'end', objectivesMet: true, quality: 9 })]);
    const { service } = buildService({ host, moderatorModel: model, embed: async () => null });
    host.say(repeat(ON_TOPIC, 10));
    expect((await service.afterMessage('session-1')).action).toBe('end');
    expect(host.ended).toEqual([{ status: 'completed', reason: 'the objectives of the plan were met' }]);
    expect(host.session.moderationState.qualityScore).toBe(9);
  });

  it('replaces a redirect that mentions people with a civil plain one (output guardrail)', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'redirect', drifting: true, message: '@everyone stop this nonsense' })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(OFF_TOPIC, 10));
    await service.afterMessage('session-1');
    expect(host.posts).toHaveLength(1);
    expect(host.posts[0]).not.toContain('@everyone');
    expect(host.posts[0]).toContain('Pick a caching layer for API responses');
    const guardrails = collector.ofType('guardrail').map((span) => span.span_data as { name: string; triggered: boolean });
    expect(guardrails).toContainEqual({ type: 'guardrail', name: 'moderator_message_civil_no_mentions', triggered: true });
  });

  it('!focus always posts a redirect', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'redirect', drifting: false, message: 'Let us return to invalidation rules.' })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(ON_TOPIC, 3));
    expect(await service.refocus(host.session)).toContain('refocus');
    expect(host.posts).toEqual(['Let us return to invalidation rules.']);
    expect(host.session.moderationState.driftWarnings).toBe(0);
  });

  it('!focus on what a person named tells the Moderator, and its plain redirect turns to it when the model writes none', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([verdictReply({ action: 'continue', drifting: false, message: '' })]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(ON_TOPIC, 3));
    expect(await service.refocus(host.session, { text: 'disclosure timelines', by: 'Ada' })).toBe(
      'The Moderator has asked everyone to focus on “disclosure timelines”.',
    );
    expect(JSON.stringify(model.firstCall?.request.input)).toContain('Ada asked the Moderator to refocus the discussion on \\"disclosure timelines\\"');
    expect(host.posts).toHaveLength(1);
    expect(host.posts[0]).toMatch(/^Ada would like us to focus on "disclosure timelines"\./);
    expect(host.posts[0]).toContain('Where does "disclosure timelines" take us on');
  });

  it('!focus during a regular check waits for it, then runs its own check with what was named', async () => {
    const host = new FakeHost();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const quiet = () => verdictReply({ action: 'continue', drifting: false, message: '' });
    const model = new ScriptedModel([modelResponder(async () => (await gate, quiet())), quiet()]);
    const { service } = buildService({ host, moderatorModel: model, embed: keywordEmbed });
    host.say(repeat(OFF_TOPIC, 10));
    const regular = service.afterMessage('session-1');
    await expect.poll(() => model.calls.length).toBe(1);
    const focused = service.refocus(host.session, { text: 'purge latency', by: 'Ada' });
    release();
    await regular;
    expect(await focused).toBe('The Moderator has asked everyone to focus on “purge latency”.');
    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(model.lastCall?.request.input)).toContain('purge latency');
    expect(host.posts.at(-1)).toMatch(/^Ada would like us to focus on "purge latency"\./);
  });
});

describe('ModerationService wrap-up', () => {
  it('persistent drift ends the session with the full chain: Moderator -> Scribe -> TLDR, both handoffs traced', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([
      verdictReply({ action: 'redirect', drifting: true, message: 'Back to caching, please.' }),
      verdictReply({ action: 'redirect', drifting: true, message: 'Again: caching.' }),
      WRAP_UP_MODERATOR,
    ]);
    const { service, scribeModel, tldrModel } = buildService({ host, moderatorModel: model, embed: keywordEmbed, settings: { maxDriftWarnings: 1 } });
    host.onEnd = async (reason) => service.wrapUp(host.session, reason);
    host.say(repeat(OFF_TOPIC, 10));
    await service.afterMessage('session-1');
    host.say(repeat(OFF_TOPIC, 10));
    expect((await service.afterMessage('session-1')).action).toBe('end');

    expect(host.ended[0]?.reason).toContain('kept drifting');
    expect(scribeModel.remainingSteps).toBe(0);
    expect(tldrModel.remainingSteps).toBe(0);
    const handoffs = collector.ofType('handoff').map((span) => span.span_data as { from_agent: string; to_agent: string });
    expect(handoffs).toEqual([
      expect.objectContaining({ from_agent: 'Moderator', to_agent: 'Scribe' }),
      expect.objectContaining({ from_agent: 'Scribe', to_agent: 'TLDR' }),
    ]);
    expect(new Set(collector.ofType('handoff').map((span) => span.trace_id)).size).toBe(1);
    const closing = host.posts.at(-1) ?? '';
    expect(host.posts.slice(0, 1)).toEqual(['Back to caching, please.']);
    expect(closing).toContain('Thank you all');
    expect(closing).toContain('Quality: 4/10');
    expect(closing).toContain('1. Redis as the cache layer (#1)');
    // The final record's next steps, as boxes Discord can show; a box ticked in the record stays ticked.
    expect(closing).toContain('**Next steps**\n☐ 1. Benchmark Redis against the CDN — Claude (#1)\n☑ 2. Agree on a TTL (#2)\n\n');
    expect(closing).toContain('[TLDR](https://notion.test/tldr)');
    expect(host.documents.map((document) => document.kind)).toEqual(['record', 'tldr']);
    const wrapUpInput = JSON.stringify(model.lastCall?.request.input);
    expect(wrapUpInput).toContain('Wrap-up of this Brainstorm session');
    expect(JSON.stringify(scribeModel.firstCall?.request.systemInstructions)).toContain('transfer_to_TLDR');
  });

  it('still posts a closing message with what exists when a step fails', async () => {
    const host = new FakeHost();
    const model = new ScriptedModel([WRAP_UP_MODERATOR]);
    const { service, tldrModel } = buildService({ host, moderatorModel: model, embed: null });
    // Replace the TLDR's script with a failure.
    while (tldrModel.remainingSteps > 0) await tldrModel.getResponse({} as never).catch(() => undefined);
    tldrModel.enqueue(modelError(new Error('model down')), modelError(new Error('model down')));
    const result = await service.runWrapUp({ ...host.session, status: 'stopped' }, 'stopped by Ada');
    expect(result.failedSteps).toContain('TLDR');
    expect(result.tldr).toBeNull();
    expect(host.posts.at(-1)).toContain('stopped by Ada');
    expect(host.posts.at(-1)).toContain('did not finish (TLDR)');
    // The record's one open step has its Done button under the closing, whichever way the closing was posted.
    expect(host.postButtons.at(-1)).toEqual(['Done 1']);
    expect(host.documents.map((document) => document.kind)).toEqual(['record']);
  });
});
