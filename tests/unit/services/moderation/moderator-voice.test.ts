import { setTraceProcessors } from '@openai/agents';
import { ScriptedModel, modelError } from '@openai/agents/testing';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createModeratorAgent } from '../../../../src/agents/moderator/moderator-agent.ts';
import { PromptLibrary } from '../../../../src/agents/prompts/prompt-library.ts';
import type { Model } from '@openai/agents';
import { ModeratorVoice } from '../../../../src/services/moderation/moderator-voice.ts';
import { FakeHost } from '../../../support/fake-moderation-host.ts';
import { honouringToolChoice } from '../../../support/forcing-model.ts';

const BUTTONS = [{ label: 'Done 2', command: 'done', args: '2@0a1b2c3d' }];

function voiceOn(host: FakeHost, model: Model): ModeratorVoice {
  const prompts = new PromptLibrary();
  return new ModeratorVoice({ moderator: createModeratorAgent({ model, prompts }), prompts, host, logger: pino({ level: 'silent' }) });
}

describe("the Moderator's voice", () => {
  beforeAll(() => setTraceProcessors([]));

  it('posts the closing with its Done buttons through post_to_discord', async () => {
    const host = new FakeHost();
    const spoken = await voiceOn(host, honouringToolChoice(new ScriptedModel([]))).say(host.session, 'Thank you all.', 'closing', { buttons: BUTTONS });
    expect(spoken?.via).toBe('tool');
    expect(host.postPaths).toEqual(['tool']);
    expect(host.postButtons).toEqual([['Done 2']]);
  });

  it('keeps the buttons when its model fails and the service posts the draft', async () => {
    const host = new FakeHost();
    const failing = new ScriptedModel([modelError(new Error('model down')), modelError(new Error('model down')), modelError(new Error('model down'))]);
    const spoken = await voiceOn(host, failing).say(host.session, 'Thank you all.', 'closing', { buttons: BUTTONS });
    expect(spoken).toEqual({ content: 'Thank you all.', via: 'service' });
    expect(host.postPaths).toEqual(['service']);
    expect(host.postButtons).toEqual([['Done 2']]);
  });
});
