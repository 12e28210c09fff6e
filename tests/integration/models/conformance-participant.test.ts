import { Agent, run } from '@openai/agents';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usageOf } from '../../../src/agents/models/index.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { conformanceCatalog, conformanceRows, driveClock, partition, ROW_NAMES, type RowName } from './conformance-table.ts';

let fake: FakeOpenRouter;
beforeAll(async () => {
  fake = await startFakeOpenRouter({ fallback: 'literal', honourToolChoice: false });
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

const rows = conformanceRows({ tool: 'post_to_discord', toolArgs: { content: 'hi' }, json: { idea: 'pilot' }, text: 'A pilot with one team first.' });

/** A refusal and request errors end the turn with a typed error (the coordinator posts its notice); the rest answer. */
const { recovers, fails } = partition(ROW_NAMES, ['refusal', '400 context length exceeded', '402 out of credits', '404 model not found']);

/** One participant turn as the coordinator runs it: streamed, at most 2 turns. */
async function turn(row: RowName, server: FakeOpenRouter = fake) {
  const { clock, models } = conformanceCatalog(server);
  const agent = new Agent({ name: 'Grok', instructions: 'You are Grok, a participant in a Brainstorm session.', model: models.participant('grok') });
  server.script({ participant: 'Grok' }, ...rows[row]);
  const outcome = await driveClock(
    clock,
    (async () => {
      const streamed = await run(agent, '[Alice]: How do we roll out feature flags?', { stream: true, maxTurns: 2 });
      let text = '';
      for await (const chunk of streamed.toTextStream()) text += chunk;
      await streamed.completed;
      return { finalOutput: String(streamed.finalOutput ?? text), usage: usageOf(streamed) };
    })(),
  );
  return { ...outcome, models };
}

describe('participant conformance: every turn ends with an answer or a typed failure', () => {
  it.each(recovers)('%s -> an answer', async (row) => {
    const { value, error } = await turn(row);
    expect(error).toBeUndefined();
    expect(value?.finalOutput.trim()).not.toBe('');
  });

  it.each(fails)('%s -> a typed failure with a clear message', async (row) => {
    const { error } = await turn(row);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/refused|context window|credits|not found/);
  });

  it('an answer cut at the length limit is posted with a visible cut-off note', async () => {
    const { value } = await turn('finish_reason length mid-answer');
    expect(value?.finalOutput).toMatch(/\*\(cut off: the answer reached the model's length limit\)\*$/);
  });

  it('a call to a tool the participant was never offered is dropped and the model asked again', async () => {
    const { value } = await turn('unknown tool name');
    expect(fake.chats).toHaveLength(2);
    expect(value?.finalOutput).toMatch(/^On /);
  });

  it('a stream without a usage chunk still answers, with zero usage recorded and its cost unknown', async () => {
    const { value } = await turn('stream without a usage chunk');
    expect(value?.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: 'unknown' });
  });

  it('a stream without a usage chunk is not charged an earlier answer that had its id (a server that reuses ids)', async () => {
    const servers = [
      await startFakeOpenRouter({ fallback: 'literal', uniqueIds: false }),
      await startFakeOpenRouter({ fallback: 'literal', uniqueIds: false }),
    ];
    try {
      const earlier = await turn('ignores the tool', servers[0]);
      expect(earlier.value?.usage.costSource).toBe('provider');
      const { value } = await turn('stream without a usage chunk', servers[1]);
      expect(value?.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0, costSource: 'unknown' });
    } finally {
      for (const server of servers) await server.close();
    }
  });

  it('a 429 waits for Retry-After; a 400 is never retried and never benches the participant', async () => {
    await turn('429 with retry-after');
    expect(fake.chats).toHaveLength(2);
    fake.reset();
    const { models } = await turn('400 context length exceeded');
    expect(fake.chats).toHaveLength(1);
    expect(models.breaker('grok')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('a hang is abandoned at the deadline (on the injected clock) and asked again', async () => {
    const { value } = await turn('a hang past the timeout');
    expect(fake.chats).toHaveLength(2);
    expect(value?.finalOutput).toMatch(/^On /);
  });
});
