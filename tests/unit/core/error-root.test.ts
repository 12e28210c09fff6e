import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelTimeoutError } from '../../../src/agents/models/request-deadline.ts';
import { ModelUnavailableError } from '../../../src/agents/models/model-errors.ts';
import { PromptError } from '../../../src/agents/prompts/prompt-library.ts';
import { ConfigError } from '../../../src/config/config-error.ts';
import { BrainstormError, describeForPerson } from '../../../src/core/errors.ts';
import { TurnCut } from '../../../src/core/turn-scope.ts';
import { NotionRequestError, NotionThrottledError } from '../../../src/notion/notion-errors.ts';
import { HttpError, WebServerError } from '../../../src/web/web-errors.ts';

describe('one error root', () => {
  const internal = [
    new ConfigError('WEB_PORT', 'too big'),
    new PromptError('missing {name}'),
    new ModelTimeoutError('m', 5000),
    new NotionRequestError('unavailable', 'service_unavailable', 'Notion is down', null),
    new NotionThrottledError(300),
    new WebServerError('listen_failed', 'port in use'),
    new HttpError(404, 'Not found.'),
    new TurnCut('preempted'),
  ];

  it('every error class of ours is a BrainstormError with a code', () => {
    for (const error of [...internal, new ModelUnavailableError('m', 'failed', 404, 'gone'), new BrainstormError('bad_input', 'empty')]) {
      expect(error).toBeInstanceOf(BrainstormError);
      expect(BrainstormError.isFamily(error)).toBe(true);
      expect(typeof error.code).toBe('string');
    }
    expect(BrainstormError.isFamily(new Error('plain'))).toBe(false);
  });

  it('only person-facing codes reach a person; internal ones get the neutral line', () => {
    expect(describeForPerson(new BrainstormError('wrong_state', 'This session has ended.'))).toBe('This session has ended.');
    for (const error of internal) expect(describeForPerson(error)).toMatch(/Something went wrong on our side/);
    expect(ConfigError.isConfigError(new ConfigError('X', 'y'))).toBe(true);
    expect(ConfigError.isConfigError(new PromptError('x'))).toBe(false);
  });

  it('no class in src/ derives from Error except the root itself', () => {
    const sourceRoot = join(import.meta.dirname, '../../../src');
    const offenders = (readdirSync(sourceRoot, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && file !== join('core', 'errors.ts'))
      .filter((file) => /class\s+\w+(?:<[^>]*>)?\s+extends\s+Error\b/.test(readFileSync(join(sourceRoot, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
