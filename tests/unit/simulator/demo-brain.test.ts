import { Agent, OpenAIChatCompletionsModel, handoff, run, tool, user, type AgentInputItem } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { moderationVerdictSchema, plannerQuestionsSchema, sessionPlanSchema, tldrSchema } from '../../../src/core/schemas.ts';
import { sampleFromSchema } from '../../../src/simulator/json-schema-sample.ts';
import { demoReply, READABLE_PACE, startSimulator, type ChatCompletionRequest, type SimulatorHandle } from '../../../src/simulator/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';

let simulator: SimulatorHandle;
let client: OpenAI;
beforeAll(async () => {
  simulator = await startSimulator();
  client = new OpenAI({ baseURL: simulator.url, apiKey: 'sk-demo', maxRetries: 0 });
});
afterAll(async () => simulator.close());

const model = (id = 'anthropic/claude-sonnet-4') => new OpenAIChatCompletionsModel(client, id);
const tldrAgent = () => new Agent({ name: 'TLDR', instructions: 'You are the TLDR of a Brainstorm session.', model: model(), outputType: tldrSchema });

/** What the demo TLDR makes of a record on pricing whose timeline holds `lines`. */
async function pricingTldr(lines: string[]) {
  const record = ['# Detailed record: pricing', '', '## Timeline', '', ...lines].join('\n');
  return (await run(tldrAgent(), `The Scribe's detailed record:\n\n${record}`)).finalOutput;
}

describe('demo brain through the real SDK', () => {
  it('the planner asks, then plans (needs approval), then hands off to the moderator', async () => {
    const plans: unknown[] = [];
    const moderator = new Agent({
      name: 'Moderator',
      instructions: 'You are the Moderator of a Brainstorm session.\nOpen the discussion.',
      model: model(),
      outputType: moderationVerdictSchema,
    });
    const startSession = tool({
      name: 'start_session',
      description: 'Starts the session with the plan once a person approves it.',
      parameters: sessionPlanSchema,
      needsApproval: true,
      execute: async (plan) => {
        plans.push(plan);
        return 'Session started.';
      },
    });
    const planner = Agent.create({
      name: 'Planner',
      instructions: 'You are the Planner of a Brainstorm session.\nAsk, then plan.',
      model: model(),
      outputType: plannerQuestionsSchema,
      tools: [startSession],
      handoffs: [handoff(moderator)],
    });

    const asked = await run(planner, 'Topic: a four-day work week for our support team');
    const questions = plannerQuestionsSchema.parse(asked.finalOutput).questions;
    expect(questions).toHaveLength(2);
    expect(questions.join(' ')).toContain('(simulated)');

    // Built with the SDK's `user()`, as the app builds the Planner's input: it reaches the model as text parts, not a string.
    const history: AgentInputItem[] = [...asked.history, user('Answers from Sam: we want a decision; budget is fixed.')];
    const paused = await run(planner, history);
    expect(paused.interruptions).toHaveLength(1);
    const proposed = paused.interruptions[0]?.rawItem;
    const plan = sessionPlanSchema.parse(JSON.parse((proposed && 'arguments' in proposed ? proposed.arguments : undefined) ?? '{}'));
    expect(plan.parameters).toEqual({ maxMessages: 40, maxTokens: 200000, maxCostUsd: 1, timeoutMinutes: 30, maxContextPercent: 70 });
    expect(plan.estimate).toEqual({ durationMinutes: 15, costUsd: 0.2, messages: 40 });
    expect(plan.objectives).toHaveLength(3);
    expect(plan.expandedTopic).toContain('four-day work week');
    // The plan is built on the person's answers, and its key areas never repeat a word ("Resources and resources").
    expect(plan.expandedTopic).toContain('Sam told the Planner: “we want a decision; budget is fixed.”');
    expect(plan.objectives.join(' ')).toMatch(/Sam raised: .*decision|Sam raised: .*budget/);
    expect(new Set(plan.keyAreas.map((area) => area.toLowerCase())).size).toBe(plan.keyAreas.length);
    expect(plan.keyAreas.join(' ')).not.toMatch(/\b(\w+) and \1\b/i);

    const state = paused.state;
    const interruption = paused.interruptions[0];
    if (!interruption) throw new Error('expected an interruption');
    state.approve(interruption);
    const resumed = await run(planner, state);
    expect(plans).toHaveLength(1);
    expect(resumed.lastAgent?.name).toBe('Moderator');
    expect(moderationVerdictSchema.parse(resumed.finalOutput)).toMatchObject({ action: 'continue', drifting: false, objectivesMet: false });
  });

  it('the planner picks the listed preset the topic suggests, and keeps the one a person chose', async () => {
    const planner = new Agent({
      name: 'Planner',
      instructions: 'You are the Planner of a Brainstorm session.\nPlan.',
      model: model(),
      tools: [tool({ name: 'start_session', description: 'Start.', parameters: sessionPlanSchema, needsApproval: true, execute: async () => 'Started.' })],
    });
    const presets = user(
      'Presets (set "preset" in the plan to the one that fits the topic, or null when none does):\n- product-ideas: Product ideas — Shortlist feature ideas.\n- retrospective: Retrospective — Look back on a project.',
    );
    const planned = async (...items: AgentInputItem[]) => {
      const paused = await run(planner, [...items, user('Propose the plan now with start_session.')]);
      const call = paused.interruptions[0]?.rawItem;
      return sessionPlanSchema.parse(JSON.parse((call && 'arguments' in call ? call.arguments : undefined) ?? '{}'));
    };

    expect((await planned(user('Topic: which feature do our users miss most?'), presets)).preset).toBe('product-ideas');
    expect((await planned(user('Topic: lunch options for the offsite'), presets)).preset).toBeNull();
    const architecture = user(
      'Presets (set "preset" in the plan to the one that fits the topic, or null when none does):\n- architecture-decision: Architecture decision — Choose between technical options.',
    );
    expect((await planned(user('Topic: how can our design team run tighter weekly critiques?'), architecture)).preset).toBeNull();
    expect((await planned(user('Topic: which database should the billing service move to?'), architecture)).preset).toBe('architecture-decision');
    expect((await planned(user('Topic: should we split out the billing module of our Rails monolith?'), architecture)).preset).toBe('architecture-decision');
    const both = user(
      'Presets (set "preset" in the plan to the one that fits the topic, or null when none does):\n- product-ideas: Product ideas — Shortlist feature ideas.\n- architecture-decision: Architecture decision — Choose between technical options.',
    );
    // Pricing an API is a product question: the word "API" alone makes no ADR of it.
    expect((await planned(user('Topic: how should we price the new API tier for small teams?'), both)).preset).toBe('product-ideas');
    expect((await planned(user('Topic: which API framework should the mobile backend use?'), both)).preset).toBe('architecture-decision');
    const chosen = user('Ana chose the preset "retrospective" (Retrospective: look back). Set "preset" to "retrospective".');
    expect((await planned(user('Topic: which feature do our users miss most?'), chosen)).preset).toBe('retrospective');
    // The plan is about the topic's subject, not its verbs ("Map the options for move jenkins").
    expect((await planned(user('Topic: should we move our CI from Jenkins to GitHub Actions?'))).objectives[0]).toBe('Map the options for GitHub Actions');
    // A topic that weighs named options is planned around them, and named technologies make it an architecture decision.
    const billing = await planned(user('Topic: How should our team decide between Postgres and DynamoDB for billing?'), architecture);
    expect(billing.preset).toBe('architecture-decision');
    expect(billing.objectives[0]).toBe('Weigh Postgres and DynamoDB against each other for billing');
    expect(billing.keyAreas.slice(0, 2)).toEqual(['Postgres', 'DynamoDB']);
  });

  it("scribe writes the whole conversation in order, tldr finds the participants' ideas, participants refer to the previous speaker", async () => {
    const long = `What if customers hate it? ${'They might call more often on Fridays, and our backlog would grow. '.repeat(4)}`.trim();
    const conversation = `[Ana (person)]: We should pilot with one team first.\n[Claude]: Measure response times before and after.\n[Grok]: ${long}`;
    const scribe = new Agent({ name: 'Scribe', instructions: 'You are the Scribe of a Brainstorm session.\nTopic: four-day week', model: model() });
    const record = String((await run(scribe, conversation)).finalOutput);
    expect(record).toContain('## Timeline');
    expect(record).toContain('- [Ana (person)]: We should pilot with one team first.\n- [Claude]: Measure response times before and after.\n- [Grok]: ');
    // Nothing is cut: the long message is in the record whole.
    expect(record).toContain(long);
    expect(record).toContain('## Ideas by participant');

    const tldr = tldrAgent();
    const summary = (await run(tldr, record)).finalOutput;
    expect(summary?.keyFindings).toHaveLength(3);
    // Findings come from the participants' ideas, never from the person's topic or the roles' notices.
    expect(summary?.keyFindings.map((finding) => finding.sources)).toEqual([['Claude'], ['Grok'], ['Claude', 'Grok']]);
    expect(summary?.keyFindings[0]?.finding).toBe('Measure response times before and after.');

    const grok = new Agent({ name: 'Grok', instructions: 'You are Grok, a participant in a Brainstorm session.', model: model('x-ai/grok-3') });
    const answer = String((await run(grok, '[Claude]: Measure response times before and after.')).finalOutput);
    expect(answer).toMatch(/Claude/);
    expect(answer).toMatch(/Grok/);
    expect(answer.endsWith('(simulated)')).toBe(true);
  });

  it('a participant answering a person turns to them, though answers that landed after the person come later in its input', async () => {
    const grok = new Agent({
      name: 'Grok',
      instructions: 'You are Grok, a participant in a Brainstorm session.\nTopic: nightly ETL on Airflow',
      model: model('x-ai/grok-3'),
    });
    const input = [
      user('[Bo (person)]: Grok, what would break first if we stayed on cron for another year?\n\n[Claude]: Name the assumption under "VM today" first.'),
      user('[Room]: Your turn, Grok. Reply to Bo (person), Claude.'),
    ];
    const answer = String((await run(grok, input)).finalOutput);
    expect(answer).toMatch(/\bBo\b/);
    expect(answer).not.toMatch(/\bClaude\b/);
  });

  it("participants pick up the topic's and people's words from each other, never their lines' own wording", async () => {
    const participant = (name: string, id: string) =>
      new Agent({
        name,
        // The topic as the demo Planner expands it: its own words ("planned", "Planner") are not the topic's.
        instructions: `You are ${name}, a participant in a Brainstorm session.\nTopic: offline mode for the mobile app — planned around what Ana told the Planner: “offline drafts”`,
        model: model(id),
      });
    const room = [participant('Claude', 'anthropic/claude-sonnet-4'), participant('ChatGPT', 'openai/gpt-4o'), participant('Grok', 'x-ai/grok-3')];
    let previous = '[Ana (person)]: Support tickets keep asking for offline drafts.';
    const picked: string[] = [];
    for (let turn = 0; turn < 12; turn += 1) {
      const speaker = room[turn % room.length]!;
      const answer = String((await run(speaker, previous)).finalOutput);
      picked.push(/"([^"]+)"/.exec(answer)?.[1] ?? '');
      previous = `[${speaker.name}]: ${answer}`;
    }
    const spoken = new Set(['offline', 'mode', 'mobile', 'app', 'support', 'tickets', 'keep', 'asking', 'drafts']);
    // Ideas are phrases ("offline drafts"), each word of them said by a person or the topic.
    const unspoken = (phrases: string[]) =>
      phrases.filter(
        (phrase) =>
          !phrase
            .toLowerCase()
            .split(' ')
            .every((word) => spoken.has(word)),
      );
    expect(unspoken(picked)).toEqual([]);
    expect(picked).toContain('offline drafts');
    // Answering the Moderator, they take the topic's words, not the words the demo Planner put around it.
    const fromTopic: string[] = [];
    for (let variant = 0; variant < 8; variant += 1) {
      for (const speaker of room)
        fromTopic.push(/"([^"]+)"/.exec(String((await run(speaker, `[Moderator]: Welcome, everyone (${variant}).`)).finalOutput))?.[1] ?? '');
    }
    expect(unspoken(fromTopic)).toEqual([]);
    // An answer that names a role ("Agreeing with Moderator…") offers no idea called "moderator".
    const afterRoleNamed: string[] = [];
    for (let variant = 0; variant < 8; variant += 1) {
      const [speaker, other] = [room[variant % 3]!, room[(variant + 1) % 3]!];
      const said = `[${other.name}]: Agreeing with Moderator on the direction (${variant}), with one caveat from the Planner and the Scribe.`;
      afterRoleNamed.push(/"([^"]+)"/.exec(String((await run(speaker, said)).finalOutput))?.[1] ?? '');
    }
    // An answer cut short ends with the room's mark: "interrupted" is no idea of the speaker's.
    const afterInterrupted: string[] = [];
    for (let variant = 0; variant < 8; variant += 1) {
      const [speaker, other] = [room[variant % 3]!, room[(variant + 1) % 3]!];
      const said = `[${other.name}]: Offline drafts (${variant}) need a clear way to roll\n\n— *(interrupted)*`;
      afterInterrupted.push(/"([^"]+)"/.exec(String((await run(speaker, said)).finalOutput))?.[1] ?? '');
    }
    expect(afterInterrupted.filter((phrase) => /interrupted/i.test(phrase))).toEqual([]);
    expect(
      afterRoleNamed.filter((phrase) =>
        phrase
          .toLowerCase()
          .split(' ')
          .some((word) => ['moderator', 'planner', 'scribe'].includes(word)),
      ),
    ).toEqual([]);
  });

  it('the room moves on through the topic once a phrase is worn, instead of circling it', async () => {
    const instructions =
      'You are Claude, a participant in a Brainstorm session.\nTopic: offline mode for the mobile app — planned around what Ana told the Planner: “offline drafts, sync conflicts and battery life”';
    const claude = new Agent({ name: 'Claude', instructions, model: model() });
    const worn = ['Grok', 'ChatGPT', 'Grok'].map((name, index) => `[${name}]: Building on it: "offline drafts" (${index}).`).join('\n\n');
    const answer = String((await run(claude, worn)).finalOutput);
    expect(answer).not.toContain('"offline drafts"');
    expect(answer).toMatch(/"(sync conflicts|battery life|mobile app)"/);
    // A person's name in an answer ("what Maya said") is no idea, nor a verb of saying.
    const namedPerson: string[] = [];
    for (let variant = 0; variant < 8; variant += 1) {
      const said = `[Maya (person)]: We keep losing drafts (${variant}).\n\n[Grok]: Unpopular take on what Maya said: it sounds safe.`;
      namedPerson.push(/"([^"]+)"/.exec(String((await run(claude, said)).finalOutput))?.[1] ?? '');
    }
    expect(namedPerson.filter((phrase) => /maya|said|sounds/i.test(phrase))).toEqual([]);
  });

  it('the scribe reads cited lines and keeps the points of its previous record', async () => {
    const scribe = new Agent({ name: 'Scribe', instructions: 'You are the Scribe of a Brainstorm session.', model: model() });
    const first = String(
      (await run(scribe, 'Topic: pricing\n\nNew messages (oldest first):\n#3 [Ana (person)]: Start with two tiers.\n#4 [Claude]: Add an annual discount.'))
        .finalOutput,
    );
    expect(first).toContain('- #3 [Ana (person)]: Start with two tiers.');
    expect(first).toContain('- #4 [Claude]: Add an annual discount.');
    const second = String(
      (
        await run(
          scribe,
          `Topic: pricing\n\nPrevious record (keep everything in it):\n${first}\n\nNew messages (oldest first):\n#5 [Grok]: Charge per seat instead.`,
        )
      ).finalOutput,
    );
    expect(second).toContain('- #3 [Ana (person)]: Start with two tiers.\n- #4 [Claude]: Add an annual discount.\n- #5 [Grok]: Charge per seat instead.');
    expect(second.match(/Add an annual discount/g)).toHaveLength(1);
    // Proposed actions become the record's task list; a box people ticked in Notion stays ticked.
    expect(first).toContain('## Next steps\n\n- [ ] Start with two tiers. — Ana (#3)');
    const ticked = String(
      (
        await run(
          scribe,
          `Topic: pricing\n\nPrevious record (keep everything in it):\n${first.replace('- [ ] Start with two tiers. — Ana (#3)', '- [x] Start with two tiers. — Ana (#3)')}\n\nNew messages (oldest first):\n#5 [Grok]: Charge per seat instead.`,
        )
      ).finalOutput,
    );
    expect(ticked).toContain('- [x] Start with two tiers. — Ana (#3)');
    // Once a plan was approved, the answers to the Planner are no proposals; an owner named in the step is its owner.
    const approved = String(
      (
        await run(
          scribe,
          [
            'Topic: standups',
            '',
            'New messages (oldest first):',
            '#3 [Ana (person)]: A decision we can try next week.',
            '#4 [Moderator]: Welcome, everyone — the plan is approved.',
            '#5 [Ana (person)]: Let us pilot written updates for two weeks, Bo owns it.',
            '#6 [Grok]: It takes that long anyway. Test the async doc with the night shift.',
            '#7 [Claude]: Try it with one team first.',
            '#8 [Claude]: Try it with one team first.',
          ].join('\n'),
        )
      ).finalOutput,
    );
    expect(approved.slice(approved.indexOf('## Next steps'))).toBe(
      [
        '## Next steps',
        '',
        '- [ ] Let us pilot written updates for two weeks, Bo owns it. — Bo (#5)',
        '- [ ] Try it with one team first. (#8)',
        '- [ ] Test the async doc with the night shift. (#6)',
      ].join('\n'),
    );
    const tldr = tldrAgent();
    const summary = (await run(tldr, `The Scribe's detailed record:\n\n${second}`)).finalOutput;
    // The topic is the record's, not the first line of the TLDR's input.
    expect(summary?.summary).toMatch(/^Claude, Grok discussed “pricing” with Ana over 3 recorded messages\./);
    expect(summary?.keyFindings.map((finding) => finding.sources)).toEqual([
      ['Claude', '#4'],
      ['Grok', '#5'],
      // The padding finding cites the latest messages: every finding cites one (the TLDR's guardrail).
      ['#3', '#4', '#5'],
    ]);
  });

  it('the TLDR finds what the room kept coming back to, not whatever was said last', async () => {
    const said = [
      ['Claude', 'pager alerts', 1],
      ['Grok', 'time zones', 2],
      ['ChatGPT', 'pager alerts', 3],
      ['Claude', 'time zones', 4],
      ['Grok', 'pager alerts', 5],
      ['ChatGPT', 'SaaS team', 6],
      ['Claude', 'handover', 7],
      ['Grok', 'on-call', 8],
    ] as const;
    const record = said.map(([speaker, idea, number]) => `- #${number} [${speaker}]: Consider "${idea}" (${number}).`).join('\n');
    const tldr = tldrAgent();
    const summary = (await run(tldr, `The Scribe's detailed record:\n\n# Detailed record: on-call\n\n${record}`)).finalOutput;
    // The two ideas named most, each at its latest, and the first of those named once.
    expect(summary?.keyFindings.map((finding) => finding.sources)).toEqual([
      ['Claude', '#4'],
      ['Grok', '#5'],
      ['ChatGPT', '#6'],
    ]);
  });

  it('the TLDR finds three lines, not one line thrice, and a finding reads without whom it answered', async () => {
    const concretely = (idea: string) =>
      `Concretely, Claude: (1) try "${idea}" with one small team, (2) measure it for two weeks, (3) decide. — ChatGPT (simulated)`;
    const summary = await pricingTldr([
      `- #3 [ChatGPT]: ${concretely('seat caps')}`,
      `- #4 [ChatGPT]: ${concretely('usage bands')}`,
      '- #5 [Claude]: I see a trade-off in "seat caps", ChatGPT: it buys speed at the cost of more moving parts. — Claude (simulated)',
      `- #6 [ChatGPT]: ${concretely('usage bands')}`,
      '- #7 [Grok]: Devil\'s advocate, Claude: what if "usage bands" is the wrong frame? — Grok (simulated)',
    ]);
    const findings = summary?.keyFindings.map((finding) => finding.finding) ?? [];
    expect(findings.filter((finding) => finding.includes('with one small team'))).toHaveLength(1);
    expect(findings).toContain('What if "usage bands" is the wrong frame?');
    expect(findings.join('\n')).not.toMatch(/Concretely, Claude|Devil's advocate/);
  });

  it("the TLDR's summary names the topic as people put it, not the demo plan's words around it", async () => {
    const record = [
      '# Detailed record: Which CI should we use? — planned around what Ana told the Planner: “a decision by Friday” (simulated)',
      '',
      '## Timeline',
      '',
      '- #3 [Claude]: Keep Jenkins for a quarter.',
    ].join('\n');
    const summary = (await run(tldrAgent(), `The Scribe's detailed record:\n\n${record}`)).finalOutput;
    expect(summary?.summary).toMatch(/^Claude discussed “Which CI should we use\?” over 1 recorded message\./);
  });

  it('the TLDR takes no critique ballot for a finding: a ranking is no idea', async () => {
    const summary = await pricingTldr([
      '- #3 [Claude]: Add an annual discount.',
      '- #4 [Grok]: Charge per seat instead.',
      '- #5 [Claude]: **My ranking:** Proposal B > Proposal A. Proposal B is the most reversible first step.',
    ]);
    expect(summary?.keyFindings.map((finding) => finding.finding).slice(0, 2)).toEqual(['Add an annual discount.', 'Charge per seat instead.']);
    expect(JSON.stringify(summary)).not.toContain('My ranking');
  });

  it('takes no finding and no next step from an answer cut off mid-sentence', async () => {
    const summary = await pricingTldr([
      '- #3 [Claude]: Add an annual discount.',
      '- #4 [Grok]: Charge per seat instead.',
      '- #5 [ChatGPT]: Try a pilot with the riskiest',
      '  — *(interrupted)*',
    ]);
    expect(JSON.stringify(summary)).not.toContain('riskiest');
    const scribe = new Agent({ name: 'Scribe', instructions: 'You are the Scribe of a Brainstorm session.', model: model() });
    const said =
      'Topic: pricing\n\nNew messages (oldest first):\n#5 [ChatGPT]: Try a pilot with the riskiest\n\n— *(interrupted)*\n#6 [Grok]: Test per-seat pricing with two customers.';
    const written = String((await run(scribe, said)).finalOutput);
    expect(written.slice(written.indexOf('## Next steps'))).toBe('## Next steps\n\n- [ ] Test per-seat pricing with two customers. (#6)');
  });

  it("the wrap-up's Scribe records the last message alone, not the wrap-up's steps that follow it", async () => {
    const input = new PromptLibrary().render('moderator-wrap-up', {
      reason: 'stopped by Ana',
      topic: 'offline mode',
      objectives: '- Pick one',
      limits: 'fine',
      record: '(none yet)',
      messages: '#4 [Claude]: Ship offline drafts first.\n#5 [Grok]: Measure sync conflicts before anything else.',
      assessmentStep: 'Assess.',
    });
    const scribe = new Agent({ name: 'Scribe', instructions: 'You are the Scribe of a Brainstorm session.\nTopic: offline mode', model: model() });
    const record = String((await run(scribe, input)).finalOutput);
    expect(record).toContain('- #5 [Grok]: Measure sync conflicts before anything else.\n\n## Ideas by participant');
    expect(record).not.toMatch(/hand-off chain|transfer_to_/);
  });

  it('moderator and scribe hand off during wrap-up', async () => {
    const tldr = tldrAgent();
    const scribe = new Agent({
      name: 'Scribe',
      instructions: 'You are the Scribe of a Brainstorm session.\nThis is the wrap-up.',
      model: model(),
      handoffs: [tldr],
      // Each step has its own output, as in the app's chain (wrap-up-chain.ts): the SDK's console warning is noise.
      handoffOutputTypeWarningEnabled: false,
    });
    const moderator = new Agent({
      name: 'Moderator',
      instructions: 'You are the Moderator of a Brainstorm session.\nWrap-up: assess, then hand off.',
      model: model(),
      outputType: moderationVerdictSchema,
      handoffs: [scribe],
      handoffOutputTypeWarningEnabled: false,
    });
    const result = await run(moderator, '[Ana]: Let us pilot it.');
    expect(result.lastAgent?.name).toBe('TLDR');
    expect(tldrSchema.parse(result.finalOutput).keyFindings.length).toBeGreaterThanOrEqual(3);
  });
});

describe('demo pace', () => {
  const asking = (first: string): ChatCompletionRequest => ({
    model: 'm',
    messages: [
      { role: 'system', content: first },
      { role: 'user', content: '[Ana]: Hello there, friends.' },
    ],
  });

  it('paces participants at a readable speed unless DEMO_PACE=fast, and never slows the roles', () => {
    expect(buildConfig({}).models.demoPace).toBe('readable');
    expect(buildConfig({ DEMO_PACE: 'fast' }).models.demoPace).toBe('fast');
    expect(demoReply(asking('You are Claude, a participant in a Brainstorm session.'), READABLE_PACE).timing).toEqual(READABLE_PACE);
    expect(demoReply(asking('You are Claude, a participant in a Brainstorm session.')).timing).toBeUndefined();
    expect(demoReply(asking('You are the Scribe of a Brainstorm session.'), READABLE_PACE).timing).toBeUndefined();
    // About six seconds for a 50-token answer: what a person can read along with.
    expect((READABLE_PACE.firstTokenMs ?? 0) + (50 / (READABLE_PACE.tokensPerSecond ?? 1)) * 1000).toBeGreaterThan(4000);
  });
});

describe('json schema answers', () => {
  it('any requested schema gets a valid object', async () => {
    const custom = z.object({
      kind: z.enum(['idea', 'risk']),
      score: z.number().int().min(3).max(9),
      tags: z.array(z.string()).min(2).max(4),
      owner: z.string().nullable(),
      nested: z.object({ ok: z.boolean(), note: z.string().max(10) }),
    });
    const agent = new Agent({ name: 'Other', instructions: 'Anything.', model: model(), outputType: custom });
    const result = await run(agent, 'Give me one.');
    expect(custom.parse(result.finalOutput)).toBeTruthy();
  });

  it('the sampler satisfies the agent schemas as JSON schema', () => {
    for (const schema of [sessionPlanSchema, moderationVerdictSchema, tldrSchema, plannerQuestionsSchema]) {
      const json = z.toJSONSchema(schema) as Record<string, unknown>;
      expect(schema.safeParse(sampleFromSchema(json, { topic: 'x' })).success).toBe(true);
      expect(z.fromJSONSchema(json).safeParse(sampleFromSchema(json)).success).toBe(true);
    }
  });

  it('a null hint stays null where the schema allows it, and is filled where it does not', () => {
    const schema = z.toJSONSchema(z.object({ preset: z.string().nullable(), owner: z.string(), either: z.union([z.number(), z.null()]) }));
    expect(sampleFromSchema(schema, { topic: 'x', hint: { preset: null, owner: null, either: null } })).toEqual({
      preset: null,
      owner: 'owner about x (simulated)',
      either: null,
    });
    expect(sampleFromSchema({ type: ['string', 'null'] }, { hint: null })).toBeNull();
  });
});
