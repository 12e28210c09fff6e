/**
 * The secret detector against a corpus: every known key shape, glued to word characters or disguised by invisible
 * and look-alike characters, is found; ordinary talk, URLs, hashes and identifiers people discuss are not.
 */
import { describe, expect, it } from 'vitest';
import { redactPastedSecrets, scanForSecrets } from '../../../../src/agents/guardrails/index.ts';
import { gluedAwsKey, gluedOpenRouterKey, interleave, keySamples, randomText, seededRandom, toFullwidth, withCyrillicLookalikes } from './secret-samples.ts';

const SAMPLES = keySamples();

/** How a key may sit in a message. */
const SETTINGS: [string, (key: string) => string][] = [
  ['alone', (key) => key],
  ['in a sentence', (key) => `here is the key: ${key} thanks`],
  ['after x_', (key) => `x_${key}`],
  ['before _prod', (key) => `${key}_prod is the one`],
  ['in backticks', (key) => `\`${key}\``],
  ['in a URL query', (key) => `https://api.example.com/v1?token=${key}&x=1`],
  ['split by zero-width spaces', (key) => interleave(key, '\u200b')],
  ['split by soft hyphens and word joiners', (key) => interleave(key, '\u00ad\u2060', 5)],
  ['in fullwidth letters', (key) => toFullwidth(key)],
];

describe('the secret detector finds every known key shape', () => {
  const cases = SAMPLES.flatMap(([kind, key]) => SETTINGS.map(([setting, place]) => [kind, setting, place(key)] as const));

  it.each(cases)('%s %s', (kind, _setting, text) => {
    const scan = scanForSecrets(text);
    expect(scan.count).toBeGreaterThan(0);
    if (kind !== 'high_entropy_token') expect(scan.kinds).toContain(kind);
  });

  it.each(SAMPLES.filter(([kind]) => kind !== 'private_key'))('%s with Cyrillic look-alikes in its prefix', (_kind, key) => {
    expect(scanForSecrets(`key ${withCyrillicLookalikes(key)}`).count).toBeGreaterThan(0);
  });

  it('finds the two keys of the first report', () => {
    expect(scanForSecrets(gluedAwsKey()).kinds).toEqual(['aws_access_key']);
    expect(scanForSecrets(`use ${gluedOpenRouterKey()} please`).kinds).toEqual(['openrouter_api_key']);
  });

  it('finds most random tokens without a known prefix (32 to 64 characters)', () => {
    const random = seededRandom(99);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const tokens = Array.from({ length: 200 }, (_, index) => randomText(random, alphabet, 32 + (index % 33)));
    const found = tokens.filter((token) => scanForSecrets(`token ${token}`).count > 0).length;
    expect(found / tokens.length).toBeGreaterThan(0.9);
  });

  it('redacts the original text, disguises included, and leaves the rest', () => {
    const key = SAMPLES[0]![1];
    const disguised = interleave(key, '\u200b');
    const redacted = redactPastedSecrets(`before ${disguised} after`);
    expect(redacted).toBe('before [redacted openrouter_api_key] after');
  });

  it("matches this deployment's own keys through the same disguises", () => {
    expect(scanForSecrets(interleave('plainvalue-0123456789', '\u200b', 3), ['plainvalue-0123456789']).kinds).toEqual(['configured_secret']);
  });
});

const random = seededRandom(5);
const hex = (length: number) => randomText(random, '0123456789abcdef', length);

/**
 * Ordinary text people write in a brainstorm, including the words, links and hashes keys are often confused with
 * (words ending in `sk` are split so a repository scan for key prefixes does not trip on them).
 */
const NEGATIVES: string[] = [
  'I think we should compare API key rotation policies across teams.',
  `Our ri${'sk'}-assessment-framework-v2-2024 covers the release process.`,
  `The ta${'sk'}-management-system-for-small-teams idea is worth a session.`,
  'ASIAPACIFICREGIONALOFFICE is the code name of the project.',
  `Use the de${'sk'}-booking-service-prototype-2025 repo as a reference.`,
  'secret_santa_exchange_planning_2024 is the channel name.',
  'xai-grok-beta-model-version-2 is what they called it.',
  'GitHub tokens start with ghp_ and OpenAI keys with sk- followed by random characters.',
  'api_key = process.env.OPENROUTER_API_KEY',
  'password: please-use-the-team-vault-instead',
  'scikit-learn and sk-learn are the same library.',
  `The fix landed in commit ${hex(40)} yesterday.`,
  `The artifact digest is sha256:${hex(64)}.`,
  `Request id ${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)} failed.`,
  'See https://github.com/openai/openai-agents-js/blob/main/packages/agents-core/src/runner.ts#L120 for details.',
  'The doc is at https://docs.google.com/document/d/1aBcD3fGhIjKlMnOpQrStUvWxYz0123456789abcd/edit?usp=sharing',
  'Thread: https://discord.com/channels/1234567890123456789/1234567890123456790/1234567890123456791',
  'The IPFS CID QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco points at the wiki.',
  '<script integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8zPrW0wVk8XcqJ4nM2sF6tY9uB1dE3hL5aR7oT2pQ ada@laptop',
  'Pneumonoultramicroscopicsilicovolcanoconiosis is a long word.',
  'getUserById2FactorAuthenticationCode3 is an awful function name.',
  'AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor',
  'npm i @openai/agents@0.20.0 discord.js@14.28.1 @notionhq/client@5.26.0',
  'Write to ada.lovelace+brainstorm@example.org with the results.',
  'eyJ is what base64 of {" looks like, which is why JWTs start with it.',
  'The AKIA prefix marks long-lived AWS access keys; ASIA marks temporary ones.',
  'version 1.2.3-beta.4+build.20260501 ships tomorrow',
  'The bucket is s3://my-company-analytics-exports-2026/daily/',
  'Budget: $12,500 for Q3; 3 engineers; 2 designers.',
  'Reference the image with ![diagram](https://example.com/img/architecture-diagram-v3-final.png)',
  'C:\\Users\\ada\\Documents\\Brainstorm\\architecture-decisions-2026-05-01.md',
  '#include <stdio.h> int main(void) { return 0; }',
  'Let us mention everyone who contributed in the final report.',
];

describe('the secret detector leaves ordinary text alone', () => {
  it.each(NEGATIVES)('%s', (text) => {
    expect(scanForSecrets(text)).toEqual({ kinds: [], count: 0 });
  });
});
