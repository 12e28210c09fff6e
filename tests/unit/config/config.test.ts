import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { buildConfig, collectSecrets } from '../../../src/config/load-config.ts';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';

describe('buildConfig', () => {
  it('starts on the embedded defaults with an empty environment, and says which it chose', () => {
    const config = buildConfig({});
    expect(config.runtime.databaseUrl).toBeUndefined();
    expect(config.models.demoMode).toBe(true);
    expect(config.models.roster.map((entry) => entry.name)).toEqual(['Claude', 'ChatGPT', 'Grok']);
    expect(config.web).toMatchObject({ host: '127.0.0.1', port: 7420 });
    expect(config.defaultsChosen.join('\n')).toMatch(/PGlite[\s\S]*markdown mirror[\s\S]*local channel[\s\S]*SIMULATED/);
  });

  it('accepts .env.example as it is', () => {
    const example = parse(readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8'));
    expect(() => buildConfig(example)).not.toThrow();
  });

  it('stops with one line naming the variable and what is wrong', () => {
    // In plain words, never zod's own ("Too big: expected number to be <=65535").
    expect(() => buildConfig({ WEB_PORT: '99999' })).toThrow(/^WEB_PORT: must be at most 65535 \(got "99999"\)$/);
    expect(() => buildConfig({ WEB_PORT: 'eighty' })).toThrow(/^WEB_PORT: must be a number \(got "eighty"\)$/);
    expect(() => buildConfig({ MODERATOR_CHECK_INTERVAL: '2.5' })).toThrow(/^MODERATOR_CHECK_INTERVAL: must be a whole number \(got "2.5"\)$/);
    expect(() => buildConfig({ SESSION_PLANNER_AUTO_START: 'maybe' })).toThrow(
      /^SESSION_PLANNER_AUTO_START: must be one of 0, 1, true, false, yes, no \(got "maybe"\)$/,
    );
    expect(() => buildConfig({ SCRIBE_MODEL: 'gpt' })).toThrow(/^SCRIBE_MODEL: "gpt" is neither a participant id/);
    expect(() => buildConfig({ NOTION_BASE_URL: 'not a url' })).toThrow(/^NOTION_BASE_URL: must be a URL \(got "not a url"\)$/);
  });

  it('applies the model overrides and adds a Cursor bridge when configured', () => {
    const config = buildConfig({
      OPENROUTER_API_KEY: 'test-openrouter-key-abcdef',
      GROK_MODEL: 'x-ai/grok-4',
      CURSOR_MODEL: 'cursor-small',
      CURSOR_BASE_URL: 'http://127.0.0.1:9999/v1',
      CURSOR_API_KEY: 'cursor-key-123456',
    });
    expect(config.models.demoMode).toBe(false);
    expect(config.models.roster.find((entry) => entry.id === 'grok')?.model).toBe('x-ai/grok-4');
    expect(config.models.roster.find((entry) => entry.id === 'cursor')).toMatchObject({ baseUrl: 'http://127.0.0.1:9999/v1', apiKey: 'cursor-key-123456' });
    expect(config.models.roles.planner.model).toBe(config.models.roster[0]?.model);
    expect(collectSecrets(config)).toEqual(expect.arrayContaining(['test-openrouter-key-abcdef', 'cursor-key-123456']));
  });

  it('reads a roster file and rejects a bad one clearly', () => {
    const directory = mkdtempSync(join(tmpdir(), 'roster-'));
    const good = join(directory, 'good.json');
    writeFileSync(
      good,
      JSON.stringify([{ id: 'local', name: 'Llama', model: 'llama3', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyVariable: 'OLLAMA_KEY', persona: 'Local.' }]),
    );
    expect(
      buildConfig({ PARTICIPANTS_FILE: good, SESSION_PLANNER_MODEL: 'local', MODERATOR_MODEL: 'local', SCRIBE_MODEL: 'local', TLDR_MODEL: 'local' }).models
        .roster[0]?.name,
    ).toBe('Llama');
    const bad = join(directory, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ id: 'Bad Id', name: 'X', model: 'm', persona: 'p' }]));
    expect(() => buildConfig({ PARTICIPANTS_FILE: bad })).toThrow(/^PARTICIPANTS_FILE: 0\.id /);
  });
});

describe('which participants are shown images', () => {
  const imagesOf = (config: ReturnType<typeof buildConfig>) => Object.fromEntries(config.models.roster.map((entry) => [entry.id, entry.images]));

  it("on OpenRouter the model list decides (no roster say); on a provider's own endpoint its default model's is known", () => {
    expect(imagesOf(buildConfig({ OPENROUTER_API_KEY: 'test-openrouter-key-abcdef' }))).toEqual({ claude: undefined, chatgpt: undefined, grok: undefined });
    const direct = buildConfig({ ANTHROPIC_API_KEY: 'sk-ant-test-123456', OPENAI_API_KEY: 'sk-test-openai-123456', GROK_API_KEY: 'xai-test-123456' });
    expect(imagesOf(direct)).toEqual({ claude: true, chatgpt: true, grok: false });
    // Another model on the provider's endpoint: not known here, so none is sent unless a participants file says.
    expect(imagesOf(buildConfig({ GROK_API_KEY: 'xai-test-123456', GROK_MODEL: 'x-ai/grok-4' })).grok).toBeUndefined();
  });

  it('a participants file says so with `images`', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'roster-')), 'images.json');
    writeFileSync(file, JSON.stringify([{ id: 'eyes', name: 'Eyes', model: 'llava', baseUrl: 'http://127.0.0.1:11434/v1', persona: 'Looks.', images: true }]));
    const roles = { SESSION_PLANNER_MODEL: 'eyes', MODERATOR_MODEL: 'eyes', SCRIBE_MODEL: 'eyes', TLDR_MODEL: 'eyes' };
    expect(buildConfig({ PARTICIPANTS_FILE: file, ...roles }).models.roster[0]?.images).toBe(true);
  });
});

describe('PromptLibrary', () => {
  it('loads every prompt and refuses to render one with a missing variable', () => {
    const prompts = new PromptLibrary();
    expect(prompts.names()).toEqual(expect.arrayContaining(['planner', 'participant', 'moderator', 'scribe-record', 'tldr-summary']));
    expect(() => prompts.render('participant', { name: 'Claude' })).toThrow(/uses \{.*\} which the code does not provide|needs \{/);
    expect(() => prompts.require('nope', [])).toThrow(/prompts\/nope\.txt/);
  });
});
