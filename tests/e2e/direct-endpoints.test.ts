import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config/load-config.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const ANTHROPIC_KEY = 'test-anthropic-direct-key';

function baseEnvironment(extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'brainstorm-direct-')),
    // Nothing listens there: OpenRouter's price list (read at start-up) is never fetched from the network in tests.
    OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1',
    ...extra,
  };
}

describe('direct provider keys and keyless endpoints', () => {
  let anthropic: FakeOpenRouter;
  let test: TestApp | undefined;

  beforeAll(async () => {
    // Stands in for Anthropic's OpenAI-compatible endpoint: a wrong or missing key gets 401.
    anthropic = await startFakeOpenRouter({ apiKey: ANTHROPIC_KEY });
  });
  afterAll(async () => {
    await test?.stop();
    await anthropic.close();
  });

  it('ANTHROPIC_API_KEY alone makes Claude real on its own endpoint; the others stay simulated and say so', async () => {
    // The simulator answers in wall-clock time while the app runs on a manual clock: deadlines must not fire meanwhile.
    const patient = { PARTICIPANT_FIRST_TOKEN_TIMEOUT_SECONDS: '3600', PARTICIPANT_ANSWER_TIMEOUT_SECONDS: '3600' };
    test = await startTestApp(baseEnvironment({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.url, ...patient }));
    expect(test.app.config.models.demoMode).toBe(false);
    expect(test.app.simulatorUrl).not.toBeNull();

    const room = await proposeSession(test, anthropic);
    await test.command(room, 'approve');
    await test.settle();

    // Claude's answers and every role's run (moved to the one real model) reached the direct endpoint...
    const claudeChats = anthropic.chats.filter((chat) => chat.agent.role === 'participant');
    expect(claudeChats.length).toBeGreaterThan(0);
    expect(new Set(claudeChats.map((chat) => chat.agent.name))).toEqual(new Set(['Claude']));
    expect(anthropic.chats.some((chat) => chat.agent.role === 'planner')).toBe(true);
    // ...with the provider's own model id and none of OpenRouter's routing fields, which it would reject.
    for (const chat of anthropic.chats) {
      expect(chat.body.model).toBe('claude-sonnet-4-0');
      expect(chat.body).not.toHaveProperty('provider');
    }
    const messages = test.transport.room(room).filter((message) => message.speakerKind === 'participant');
    const claude = messages.filter((message) => message.speaker === 'Claude');
    const simulated = messages.filter((message) => message.speaker !== 'Claude');
    expect(claude.length).toBeGreaterThan(0);
    expect(claude.every((message) => !message.simulated)).toBe(true);
    expect(simulated.length).toBeGreaterThan(0);
    expect(simulated.every((message) => message.simulated)).toBe(true);
  });

  it('each provider key alone turns only its participant real, on its own base URL', () => {
    const cases = [
      { variable: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL', id: 'chatgpt', model: 'gpt-4o' },
      { variable: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL', id: 'claude', model: 'claude-sonnet-4-0' },
      { variable: 'GROK_API_KEY', base: 'GROK_BASE_URL', id: 'grok', model: 'grok-3' },
    ];
    for (const entry of cases) {
      const config = buildConfig(baseEnvironment({ [entry.variable]: 'test-direct-key-123', [entry.base]: 'http://127.0.0.1:9/v1' }));
      const real = config.models.roster.filter((participant) => !participant.simulated);
      expect(real.map((participant) => participant.id)).toEqual([entry.id]);
      expect(real[0]).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: entry.model, dialect: 'openai-compatible' });
      expect(Object.values(config.models.roles).every((role) => !role.simulated)).toBe(true);
      expect(config.defaultsChosen.join('\n')).toMatch(/SIMULATED \(no key for their endpoint\)/);
    }
    // With OpenRouter's key too, OpenRouter serves whoever has no direct key.
    const mixed = buildConfig(baseEnvironment({ OPENROUTER_API_KEY: 'test-openrouter-key', GROK_API_KEY: 'test-direct-key-123' }));
    expect(mixed.models.roster.map((participant) => [participant.id, participant.dialect, participant.simulated])).toEqual([
      ['claude', 'openrouter', false],
      ['chatgpt', 'openrouter', false],
      ['grok', 'openai-compatible', false],
    ]);
  });

  it('a roster of keyless local endpoints (Ollama, LM Studio) runs them for real, with no key sent anywhere', () => {
    const directory = mkdtempSync(join(tmpdir(), 'roster-'));
    const file = join(directory, 'local.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 'llama', name: 'Llama', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1', persona: 'Local.' },
        { id: 'qwen', name: 'Qwen', model: 'qwen2.5', baseUrl: 'http://127.0.0.1:1234/v1', persona: 'Local too.' },
      ]),
    );
    const config = buildConfig(
      baseEnvironment({
        PARTICIPANTS_FILE: file,
        SESSION_PLANNER_MODEL: 'llama',
        MODERATOR_MODEL: 'llama',
        SCRIBE_MODEL: 'qwen',
        TLDR_MODEL: 'qwen',
        OPENROUTER_API_KEY: 'test-openrouter-key',
      }),
    );
    expect(config.models.demoMode).toBe(false);
    expect(config.models.anySimulated).toBe(false);
    expect(config.models.roster.every((participant) => participant.apiKey === undefined && participant.dialect === 'openai-compatible')).toBe(true);
  });

  it('default personas have avatars that load on Discord', () => {
    const config = buildConfig(baseEnvironment({}));
    for (const participant of config.models.roster) expect(participant.avatarUrl).toMatch(/^https:\/\/cdn\.discordapp\.com\//);
  });
});
