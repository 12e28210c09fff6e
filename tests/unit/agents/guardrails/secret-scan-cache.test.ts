import { Agent, InputGuardrailTripwireTriggered, Runner, user } from '@openai/agents';
import { assistantMessage, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { participantInputGuardrail } from '../../../../src/agents/guardrails/input-guardrails.ts';
import { scanForSecrets } from '../../../../src/agents/guardrails/secret-patterns.ts';
import { SecretScanCache, scanTexts } from '../../../../src/agents/guardrails/secret-scan-cache.ts';
import { buildParticipantInput } from '../../../../src/agents/participants/conversation-input.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

// Built at run time so the repository holds no credential-shaped literal.
const KEY = ['sk', 'or', 'v1', 'Zq8Lm2Vx7Rt4Np9Kc3Wd6Hy1Bf5Gs0Ja2Ue8Io4Ql7Xm3'].join('-');

describe('SecretScanCache', () => {
  it('gives the same verdict as a fresh scan, and keeps it: a text read again is not scanned again', () => {
    const cache = new SecretScanCache();
    const text = `[Grok]: use ${KEY} for the staging account`;
    const first = cache.scan(text, []);
    expect(first).toEqual(scanForSecrets(text));
    expect(cache.scan(text, [])).toBe(first);
    expect(cache.size).toBe(1);
  });

  it('keeps verdicts apart for different known secrets', () => {
    const cache = new SecretScanCache();
    const text = 'the deployment key is local-deploy-key-42';
    expect(cache.scan(text, []).count).toBe(0);
    expect(cache.scan(text, ['local-deploy-key-42']).kinds).toEqual(['configured_secret']);
    // Back to no known secrets (another array with the same keys counts as the same set).
    expect(cache.scan(text, []).count).toBe(0);
    expect(cache.scan(text, ['local-deploy-key-42']).count).toBe(1);
    expect(cache.scan(text, [...['local-deploy-key-42']]).count).toBe(1);
  });

  it('forgets the oldest texts beyond its capacity, and never keeps a text larger than all of it', () => {
    const cache = new SecretScanCache(100);
    for (let index = 0; index < 10; index += 1) cache.scan(`message number ${index} is plain talk.`, []);
    expect(cache.size).toBeLessThanOrEqual(3);
    cache.scan('x'.repeat(500), []);
    expect(cache.size).toBeLessThanOrEqual(3);
  });

  it('adds the verdicts of a conversation up: one message with a key trips it', () => {
    const scan = scanTexts(['[Alice (person)]: hello', `[Grok]: ${KEY}`, '[Claude]: no'], [], new SecretScanCache());
    expect(scan.count).toBe(1);
    expect(scan.kinds).toEqual(['openrouter_api_key']);
  });

  it('the participant input guardrail scans each message once across turns, and still trips on a new one', async () => {
    const scans = new SecretScanCache();
    const model = new ScriptedModel([[assistantMessage('A kill switch first.')], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'Claude', instructions: 'A participant.', model, inputGuardrails: [participantInputGuardrail({ scans })] });
    const runner = new Runner({ tracingDisabled: true });
    const conversation = [user('[Alice (person)]: which flags first?'), user('[Grok]: the payment path.')];
    await runner.run(agent, conversation);
    expect(scans.size).toBe(2);
    await expect(runner.run(agent, [...conversation, user(`[Claude]: try ${KEY}`)])).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(scans.size).toBe(3);
    expect(model.remainingSteps).toBe(1);
  });

  it('scans a conversation joined into few items message by message: a turn later only the new messages are scanned', async () => {
    const scanned: string[] = [];
    const scans = new (class extends SecretScanCache {
      override scan(text: string, knownSecrets: readonly string[]) {
        const before = this.size;
        const verdict = super.scan(text, knownSecrets);
        if (this.size > before) scanned.push(text);
        return verdict;
      }
    })();
    const model = new ScriptedModel([[assistantMessage('A kill switch first.')], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'Claude', instructions: 'A participant.', model, inputGuardrails: [participantInputGuardrail({ scans })] });
    const runner = new Runner({ tracingDisabled: true });
    const said = (id: number, name: string, text: string) => chatMessage({ id, speaker: { kind: name === 'Alice' ? 'human' : 'participant', name }, text });
    const history = Array.from({ length: 30 }, (_, index) =>
      said(index + 1, ['Alice', 'Grok', 'ChatGPT'][index % 3]!, `point ${index}, with paragraphs.\n\nAnd a second one.`),
    );
    await runner.run(agent, buildParticipantInput({ selfName: 'Claude', messages: history, record: null, answering: [] }));
    scanned.length = 0;
    const next = [...history, said(31, 'Grok', 'one more point.')];
    await runner.run(agent, buildParticipantInput({ selfName: 'Claude', messages: next, record: null, answering: [] }));
    // The new message, and the transcript's first part (its heading and first message) when the split moved.
    expect(scanned.join('').length).toBeLessThan(200);
    expect(scanned).toContain('[Grok]: one more point.');
    const leaked = [...next, said(32, 'Alice', `try ${KEY}`)];
    await expect(runner.run(agent, buildParticipantInput({ selfName: 'Claude', messages: leaked, record: null, answering: [] }))).rejects.toBeInstanceOf(
      InputGuardrailTripwireTriggered,
    );
  });
});
