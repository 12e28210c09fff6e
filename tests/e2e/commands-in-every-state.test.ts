import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../src/core/domain.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;
const rooms = new Map<SessionStatus, string>();

/** Which commands apply in which state; every other combination must be refused without a change. */
const APPLIES: Record<string, SessionStatus[]> = {
  approve: ['awaiting_approval'],
  continue: ['active', 'paused'],
  pause: ['active'],
  refresh: ['active', 'paused'],
  focus: ['active'],
  explore: ['active', 'paused', 'completed', 'stopped'],
  reset: ['active', 'paused'],
};
const ALWAYS = ['status', 'summary', 'record', 'steps', 'done', 'reopen', 'help'];
const STATES: SessionStatus[] = ['planning', 'awaiting_approval', 'active', 'paused', 'stopped'];

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' }));
  fake.script({ role: 'planner' }, replies.json({ questions: ['Which team?'] }));
  await test.say(null, 'A topic still being planned');
  await test.settle();
  rooms.set('planning', test.transport.rooms.at(-1)!.roomId);
  rooms.set('awaiting_approval', await proposeSession(test, fake, {}, 'A plan waiting for approval'));
  for (const state of ['active', 'paused', 'stopped'] as const) {
    const room = await proposeSession(test, fake, {}, `A session that will be ${state}`);
    await test.command(room, 'approve');
    await test.settle();
    if (state === 'paused') await test.command(room, 'pause');
    if (state === 'stopped') await test.command(room, 'stop');
    await test.settle();
    rooms.set(state, room);
  }
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

let personCounter = 0;
/** A fresh person per call: the per-person command rate limit is not what these tests are about. */
const someone = (isAdmin: boolean) => {
  personCounter += 1;
  return { id: `u-${personCounter}`, name: isAdmin ? 'Ada' : 'Alice', isAdmin };
};
const statusOf = async (room: string) => (await test.app.repositories.sessions.findByRoom('memory', room))?.status;

describe('every command in every state', () => {
  for (const state of STATES) {
    for (const [command, states] of Object.entries(APPLIES)) {
      if (states.includes(state)) continue;
      it(`!${command} in ${state} is refused with a clear reply and changes nothing`, async () => {
        const room = rooms.get(state)!;
        expect(await statusOf(room)).toBe(state);
        const reply = await test.command(room, command, command === 'explore' ? 'side topic' : '', someone(true));
        expect(reply.content).toMatch(/does not apply now: the session is|no plan/i);
        expect(await statusOf(room)).toBe(state);
      });
    }
    for (const command of ALWAYS) {
      it(`!${command} in ${state} answers`, async () => {
        const reply = await test.command(rooms.get(state)!, command, '', someone(false));
        expect(reply.content.length).toBeGreaterThan(10);
        expect(reply.content).not.toMatch(/does not apply/);
      });
    }
  }

  it('!status shows every limit as a progress bar', async () => {
    const reply = await test.command(rooms.get('active')!, 'status', '', someone(false));
    for (const label of ['Messages', 'Tokens', 'Cost', 'Time', 'Context']) expect(reply.content).toMatch(new RegExp(`${label}\\s+[█░]{12}`));
  });

  it('refuses admin commands to a non-admin and says why', async () => {
    for (const command of ['config', 'enable', 'disable', 'reset']) {
      const reply = await test.command(rooms.get('active')!, command, 'grok', someone(false));
      expect(reply.content).toMatch(/for admins/);
    }
  });

  it('answers an unknown command, empty and malformed arguments clearly', async () => {
    expect((await test.command(rooms.get('active')!, 'frobnicate', '', someone(false))).content).toMatch(/Unknown command `!frobnicate`/);
    expect((await test.command(rooms.get('active')!, 'explore', '', someone(false))).content).toMatch(/Say what to explore/);
    expect((await test.command(rooms.get('active')!, 'disable', 'nobody', someone(true))).content).toMatch(/No participant called "nobody"/);
    expect((await test.command(rooms.get('active')!, 'config', 'DISCORD_BOT_TOKEN abc', someone(true))).content).toMatch(/cannot be changed/);
    expect((await test.command(rooms.get('active')!, 'config', 'MAX_AI_RESPONSES_PER_TURN lots', someone(true))).content).toMatch(/MAX_AI_RESPONSES_PER_TURN/);
  });

  it('an admin can disable and enable a participant and change a setting', async () => {
    expect((await test.command(rooms.get('active')!, 'disable', 'Grok', someone(true))).content).toBe('Grok is disabled.');
    expect(test.app.services.roster.active({ disabledParticipants: [] }).map((entry) => entry.name)).toEqual(['Claude', 'ChatGPT']);
    expect((await test.command(rooms.get('active')!, 'enable', 'grok', someone(true))).content).toBe('Grok is enabled.');
    expect((await test.command(rooms.get('active')!, 'config', 'MAX_AI_RESPONSES_PER_TURN 2', someone(true))).content).toMatch(/is now `2`/);
    expect(test.app.services.settings.effectiveConfig().limits.maxAiResponsesPerTurn).toBe(2);
  });

  it('!explore opens a linked sub-session seeded with the parent', async () => {
    const before = test.transport.rooms.length;
    const reply = await test.command(rooms.get('active')!, 'explore', 'kill switches', someone(false));
    expect(reply.content).toMatch(/Exploring “kill switches”/);
    expect(test.transport.rooms.length).toBe(before + 1);
    const child = await test.app.repositories.sessions.findByRoom('memory', test.transport.rooms.at(-1)!.roomId);
    const parent = await test.app.repositories.sessions.findByRoom('memory', rooms.get('active')!);
    expect(child?.parentId).toBe(parent?.id);
    // The title is the subtopic; the parent's summary seeds the plan instead.
    expect(child?.topic).toBe('kill switches');
    expect(child?.plannerState.seed).toMatch(/^Explored from/);
  });

  it('limits commands per person per minute, but a stop always goes through', async () => {
    const hasty = { id: 'u-hasty', name: 'Hasty', isAdmin: false };
    const replies = [];
    for (let index = 0; index < 11; index += 1) replies.push((await test.command(rooms.get('active')!, 'status', '', hasty)).content);
    expect(replies.at(-1)).toMatch(/too many commands/);
    expect((await test.command(rooms.get('active')!, 'stop', '', hasty)).content).toMatch(/Stopped/);
  });
});
