/**
 * Every key `!config` accepts takes effect at once in running sessions: one row per tunable key, each
 * changing the key through the command and observing the behaviour it governs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TUNABLE_SETTING_KEYS, type TunableSettingKey } from '../../src/services/settings/tunable-settings.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { admin, alice, fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp | undefined;

beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal' });
});
afterAll(async () => fake?.close());
afterEach(async () => {
  await test?.stop();
  test = undefined;
});

/** What a row works with: an app whose first session is active in `room`. */
interface Probe {
  test: TestApp;
  room: string;
  config(value: string): Promise<string>;
}

/** One row: extra environment for its app, and what it checks after `!config <key> <value>`. */
interface Row {
  env?: Record<string, string>;
  run(probe: Probe): Promise<void>;
}

const BASE_ENV = { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' };

const sessionIn = async (t: TestApp, room: string) => (await t.app.repositories.sessions.findByRoom('memory', room))!;
const participantCount = (t: TestApp, room: string) => t.transport.room(room).filter((message) => message.speakerKind === 'participant').length;
const moderatorRequests = () => fake.chats.filter((chat) => chat.agent.role === 'moderator');
const lastModeratorRequest = () => JSON.stringify(moderatorRequests().at(-1)?.body.messages ?? []);
const documentVersion = async (t: TestApp, room: string, kind: 'record' | 'tldr') =>
  (await t.app.repositories.documents.find((await sessionIn(t, room)).id, kind))?.version ?? 0;

/** After the change, the next person's message ends the session on the named limit. */
function endsOn(value: string, reason: RegExp): Row {
  return {
    async run({ test: t, room, config }) {
      await config(value);
      await t.say(room, 'One more thought on rollout order.');
      await t.settle();
      const session = await sessionIn(t, room);
      expect(session.status).toBe('completed');
      expect(session.endReason).toMatch(reason);
    },
  };
}

/** After the change (moderator checks on every message), the next check's input contains `expected`. */
function moderatorSees(value: string, expected: string, env: Record<string, string> = {}): Row {
  return {
    env: { MODERATOR_CHECK_INTERVAL: '1', ...env },
    async run({ test: t, room, config }) {
      await config(value);
      await t.say(room, 'Let us weigh the risks of stale flags.');
      await t.settle();
      expect(lastModeratorRequest()).toContain(expected);
    },
  };
}

/** A second topic, planned and waiting for approval, in its own room. */
async function awaitingSession(t: TestApp): Promise<string> {
  await t.say(null, 'Naming conventions for our flags');
  await t.settle();
  return t.transport.rooms.at(-1)!.roomId;
}

const ROWS: Record<TunableSettingKey, Row> = {
  MAX_MESSAGES_PER_CONVERSATION: endsOn('3', /message limit/),
  MAX_TOKENS_PER_CONVERSATION: endsOn('1000', /token budget/),
  MAX_COST_PER_CONVERSATION_USD: endsOn('0.000001', /cost limit/),
  MAX_CONTEXT_WINDOW_PERCENT: {
    async run({ test: t, room, config }) {
      await config('10');
      expect((await t.app.services.limits.report(await sessionIn(t, room))).contextPercent.limit).toBe(10);
    },
  },
  CONTEXT_REFRESH_THRESHOLD: {
    env: { CONTEXT_HISTORY_BUDGET_TOKENS: '1000000' },
    async run({ test: t, room, config }) {
      await t.command(room, 'pause');
      await t.say(room, 'A long note on rollout order. '.repeat(80));
      // A small window (8192 tokens) makes the threshold the deciding bound.
      const build = async () => t.app.services.context.build(await sessionIn(t, room), 'ChatGPT', 'openai/text-embedding-3-small', []);
      expect((await build()).compressed).toBe(false);
      await config('5');
      expect((await build()).compressed).toBe(true);
    },
  },
  CONVERSATION_TIMEOUT_MINUTES: {
    async run({ test: t, room, config }) {
      await config('1');
      await t.clock.advance(61_000);
      await t.settle();
      const session = await sessionIn(t, room);
      expect(session.status).toBe('completed');
      expect(session.endReason).toBe('the time limit was reached');
    },
  },
  MAX_AI_RESPONSES_PER_TURN: {
    async run({ test: t, room, config }) {
      await config('1');
      const before = participantCount(t, room);
      await t.say(room, 'Who wants to take the kill-switch question?');
      await t.settle();
      expect(participantCount(t, room) - before).toBe(1);
    },
  },
  BATCH_REPLY_TIME_WINDOW_SECONDS: {
    env: { MAX_AI_RESPONSES_PER_TURN: '1' },
    async run({ test: t, room, config }) {
      await config('10');
      await t.say(room, 'First: should flags expire?');
      await t.settle();
      await t.clock.advance(30_000);
      await t.say(room, 'Second: who owns the flag list?');
      await t.settle();
      // The one who answers has not answered the first question either, but it is older than the window.
      const stored = await t.app.repositories.messages.listForSession((await sessionIn(t, room)).id);
      const second = stored.find((message) => message.text.startsWith('Second:'))!;
      const answer = stored.findLast((message) => message.speaker.kind === 'participant')!;
      expect(answer.replyTo).toEqual([second.id]);
    },
  },
  MAX_AI_ROUNDS_WITHOUT_HUMAN: {
    async run({ test: t, room, config }) {
      await config('2');
      const before = participantCount(t, room);
      await t.say(room, 'Go on among yourselves for a bit.');
      await t.settle();
      expect(participantCount(t, room) - before).toBeGreaterThan(3);
    },
  },
  MAX_HUMAN_MESSAGE_CHARS: {
    async run({ test: t, room, config }) {
      await config('100');
      const reply = await t.say(room, 'x'.repeat(150));
      expect(reply?.content).toMatch(/the limit is 100/);
    },
  },
  HUMAN_MESSAGES_PER_MINUTE: {
    async run({ test: t, room, config }) {
      // Nobody answers (every participant is off): the person's messages pile up, which is what the cap is for.
      for (const name of ['Claude', 'ChatGPT', 'Grok']) await t.command(room, 'disable', name, admin);
      await config('1');
      const counted = async () => (await sessionIn(t, room)).messageCount;
      await t.say(room, 'A first thought.');
      const before = await counted();
      await t.clock.advance(3_000);
      const reply = await t.say(room, 'A second thought, well apart from the first.');
      expect(reply?.content).toMatch(/taking your next messages together/);
      expect(await counted()).toBe(before);
      for (const name of ['Claude', 'ChatGPT', 'Grok']) await t.command(room, 'enable', name, admin);
    },
  },
  COMMAND_RATE_LIMIT_PER_MINUTE: {
    async run({ test: t, room, config }) {
      await config('2');
      await t.command(room, 'status', '', alice);
      await t.command(room, 'status', '', alice);
      expect((await t.command(room, 'status', '', alice)).content).toMatch(/too many commands/);
    },
  },
  SCRIBE_UPDATE_INTERVAL: {
    async run({ test: t, room, config }) {
      await config('5');
      await t.say(room, 'Write this down, please.');
      await t.settle();
      await t.clock.advance(6_000);
      await t.settle();
      expect(await documentVersion(t, room, 'record')).toBeGreaterThan(0);
    },
  },
  TLDR_UPDATE_INTERVAL: {
    env: { SCRIBE_UPDATE_INTERVAL: '5' },
    async run({ test: t, room, config }) {
      await t.clock.advance(6_000);
      await t.settle();
      expect(await documentVersion(t, room, 'tldr')).toBe(1);
      await config('5');
      await t.say(room, 'A new point for the summary.');
      await t.settle();
      await t.clock.advance(6_000);
      await t.settle();
      expect(await documentVersion(t, room, 'tldr')).toBe(2);
    },
  },
  SESSION_PLANNER_TIMEOUT_MINUTES: {
    async run({ test: t, config }) {
      const waiting = await awaitingSession(t);
      await config('1');
      await t.clock.advance(61_000);
      await t.settle();
      expect((await sessionIn(t, waiting)).status).toBe('cancelled');
    },
  },
  SESSION_PLANNER_MAX_QUESTIONS: {
    async run({ test: t, config }) {
      await config('2');
      await t.say(null, 'Naming conventions for our flags');
      await t.settle();
      const planner = fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1);
      expect(JSON.stringify(planner?.body.messages)).toContain('at most 2 short, concrete questions');
    },
  },
  SESSION_PLANNER_AUTO_START: {
    async run({ test: t, config }) {
      await config('true');
      const started = await awaitingSession(t);
      expect((await sessionIn(t, started)).startedAt).not.toBeNull();
    },
  },
  MODERATOR_CHECK_INTERVAL: {
    async run({ test: t, room, config }) {
      await config('1');
      const before = moderatorRequests().length;
      await t.say(room, 'Checking in on our objectives.');
      await t.settle();
      expect(moderatorRequests().length).toBeGreaterThan(before);
    },
  },
  MODERATOR_TOPIC_DRIFT_THRESHOLD: moderatorSees('0.99', 'drift is suspected below 0.99'),
  MODERATOR_MAX_DRIFT_WARNINGS: moderatorSees('7', 'of 7.'),
  MODERATOR_PARTICIPANT_BALANCE_CHECK: {
    env: { MODERATOR_CHECK_INTERVAL: '1', MAX_AI_RESPONSES_PER_TURN: '1' },
    async run({ test: t, room, config }) {
      await config('false');
      await t.say(room, 'Let us weigh the risks of stale flags.');
      await t.settle();
      expect(lastModeratorRequest()).toContain('Balanced.');
      expect(lastModeratorRequest()).not.toContain('Quiet participant');
    },
  },
  MODERATOR_QUALITY_ASSESSMENT: {
    async run({ test: t, room, config }) {
      await config('false');
      await t.command(room, 'stop');
      await t.settle();
      const wrapUp = moderatorRequests()
        .filter((chat) => chat.body.messages.some((message) => message.role === 'user' && JSON.stringify(message.content).startsWith('"Wrap-up')))
        .at(-1);
      expect(JSON.stringify(wrapUp?.body.messages ?? [])).toContain('No assessment is needed this time.');
    },
  },
};

describe('!config takes effect at once in running sessions', () => {
  it.each(TUNABLE_SETTING_KEYS.map((key) => [key]))('%s', async (key) => {
    fake.reset();
    const row = ROWS[key];
    const t = await startTestApp(fakeEnvironment(fake.url, { ...BASE_ENV, ...row.env }));
    test = t;
    const room = await proposeSession(t, fake);
    await t.command(room, 'approve');
    await t.settle();
    const config = async (value: string) => {
      const reply = await t.command(room, 'config', `${key} ${value}`, admin);
      expect(reply.content).toMatch(new RegExp(`\`${key}\` is now`));
      return reply.content;
    };
    await row.run({ test: t, room, config });
  });

  it('refuses, with the reason, a setting that cannot change at run time', async () => {
    fake.reset();
    test = await startTestApp(fakeEnvironment(fake.url, BASE_ENV));
    const reply = await test.command('nowhere', 'config', 'CONTEXT_HISTORY_BUDGET_TOKENS 2000', admin);
    expect(reply.content).toMatch(/CONTEXT_HISTORY_BUDGET_TOKENS cannot be changed at run time: .*restart/);
  });

  it("names the setting an admin meant by the plan's word for it, and changes nothing", async () => {
    fake.reset();
    test = await startTestApp(fakeEnvironment(fake.url, BASE_ENV));
    const before = await test.command('nowhere', 'config', '', admin);
    const reply = await test.command('nowhere', 'config', 'maxMessages 100', admin);
    expect(reply.content).toBe('Unknown setting "maxMessages". Did you mean `MAX_MESSAGES_PER_CONVERSATION`? `!config` lists every setting with its value.');
    expect((await test.command('nowhere', 'config', '', admin)).content).toBe(before.content);
  });
});
