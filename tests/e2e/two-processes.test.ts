/**
 * Two processes on one Postgres server both receive the same person's message (two bot processes in one guild,
 * or a catch-up racing a live event): exactly one acts on it and answers, and nothing is logged as an error.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { randomIds } from '../../src/core/ids.ts';
import type { InboundMessage } from '../../src/core/ports.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres } from '../support/databases.ts';
import { MemoryTransport } from '../support/memory-transport.ts';
import { proposeSession } from '../support/session-driver.ts';
import { alice, fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };
/** The lines logged at error and above (what the test reads): a warning is counted, not kept. */
const logged: string[] = [];
let linesLogged = 0;
let first: TestApp;
let second: TestApp;

/**
 * A logger that keeps the lines at error and above, to check no process logs an error in a normal race. It once kept
 * every warning too, and a newcomer's run died with this file's fork at its 4 GB heap limit (never reproduced since):
 * a warning logged in a loop is now said once, with its text, instead of filling the heap.
 */
function recordingLogger() {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString('utf8');
      linesLogged += 1;
      if (/"level":(50|60)/.test(line) && logged.length < 1_000) logged.push(line);
      if (linesLogged === 10_000) process.stderr.write(`two-processes: 10,000 lines logged at warn and above; the last: ${line.slice(0, 1_000)}\n`);
      done();
    },
  });
  return createLogger({ level: 'warn', secrets: [], destination: sink });
}

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
  const environment = fakeEnvironment(fake.url, { DATABASE_URL: database.url });
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  // One room seen by both processes: the same transport name over the same rooms.
  const transport = new MemoryTransport();
  const shared = { clock, transport, ids: randomIds, database: { kind: 'postgres' as const, url: database.url }, logger: recordingLogger() };
  first = await startTestApp(environment, shared);
  second = await startTestApp(environment, shared);
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await fake?.close();
  await database?.drop();
});

describe('several processes on one database', () => {
  it('answers a command once, however many processes receive it', async () => {
    const room = await proposeSession(first, fake);
    const approve: InboundMessage = {
      transport: first.transport.name,
      roomId: room,
      channelId: 'brainstorm',
      externalId: 'ext-approve-1',
      author: alice,
      content: '!approve',
    };
    const answers = await Promise.all([first.app.gateway.handleMessage(approve), second.app.gateway.handleMessage(approve)]);
    expect(answers.filter((answer) => answer !== null)).toHaveLength(1);
    expect(answers.find((answer) => answer !== null)?.content).toMatch(/approved/i);
    const session = await first.app.repositories.sessions.findByRoom(first.transport.name, room);
    expect(session?.status).toBe('active');
    expect(logged.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('stores and answers a person message once when both processes receive it', async () => {
    const room = first.transport.rooms.at(-1)!.roomId;
    const session = await first.app.repositories.sessions.findByRoom(first.transport.name, room);
    const message: InboundMessage = {
      transport: first.transport.name,
      roomId: room,
      channelId: 'brainstorm',
      externalId: 'ext-question-1',
      author: alice,
      content: 'Which flag system is cheapest to run?',
    };
    await Promise.all([first.app.gateway.handleMessage(message), second.app.gateway.handleMessage(message)]);
    const stored = await first.app.repositories.messages.listForSession(session!.id);
    expect(stored.filter((entry) => entry.text === message.content)).toHaveLength(1);
  });
});
