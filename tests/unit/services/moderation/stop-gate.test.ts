import { afterAll, describe, expect, it } from 'vitest';
import { setTraceProcessors, type ModelRequest, type ModelResponse } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { buildService, FakeHost, verdict } from './moderation-fixtures.ts';

afterAll(() => setTraceProcessors([]));

const OFF_TOPIC = ['Did anyone watch the football final?', 'The goalkeeper was amazing', 'Best pizza toppings?'];

/** A scripted Moderator whose answer arrives only after the session was stopped (as `!stop` during a check). */
class StoppedWhileThinking extends ScriptedModel {
  constructor(
    private readonly host: FakeHost,
    reply: Parameters<typeof verdict>[0],
  ) {
    super([[assistantMessage(JSON.stringify(verdict(reply)))]]);
  }
  override async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.host.session = { ...this.host.session, status: 'stopped' };
    return super.getResponse(request);
  }
}

describe('stop means stop: a check that ends after !stop posts nothing', () => {
  it('drops the redirect the Moderator wrote while the session was being stopped', async () => {
    const host = new FakeHost();
    const { service } = buildService({
      host,
      moderatorModel: new StoppedWhileThinking(host, { action: 'redirect', drifting: true, message: 'Let us bring it back to caching.' }),
      embed: null,
    });
    host.say(Array.from({ length: 10 }, (_, index) => OFF_TOPIC[index % OFF_TOPIC.length] ?? ''));
    const outcome = await service.afterMessage('session-1');
    expect(host.posts).toEqual([]);
    expect(outcome.posted).toBeNull();
  });

  it('drops an invitation to a quiet participant too', async () => {
    const host = new FakeHost();
    const { service } = buildService({
      host,
      moderatorModel: new StoppedWhileThinking(host, { action: 'invite', target: 'Grok', message: 'Grok, your view?' }),
      embed: null,
    });
    host.say(
      Array.from({ length: 10 }, () => 'Caching with Redis in front of the API'),
      ['Claude', 'ChatGPT'],
    );
    await service.afterMessage('session-1');
    expect(host.posts).toEqual([]);
    expect(host.invited).toEqual([]);
  });
});
