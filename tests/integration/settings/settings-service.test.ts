import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load-config.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { SettingsRepository } from '../../../src/repositories/settings-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { BrainstormError } from '../../../src/core/errors.ts';
import { SettingsService } from '../../../src/services/settings/settings-service.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const admin = { id: 'u1', name: 'Ada' };

function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', secrets: [], destination }) };
}

async function errorOf(promise: Promise<unknown>): Promise<BrainstormError> {
  try {
    await promise;
  } catch (error) {
    if (BrainstormError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a BrainstormError');
}

describe.each(ENGINES)('SettingsService on %s', (engine) => {
  let handle: DatabaseHandle;
  const baseConfig = buildConfig({ MODERATOR_CHECK_INTERVAL: '10', MAX_COST_PER_CONVERSATION_USD: '5' });
  const clock = new ManualClock();

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
  });
  afterAll(async () => handle.close());

  function service() {
    const { lines, logger } = capturingLogger();
    return { lines, settings: new SettingsService({ store: new SettingsRepository(handle.db), baseConfig, clock, logger }) };
  }

  it('validates, persists, applies and audits a change; a new instance reads it back', async () => {
    const { settings, lines } = service();
    await settings.load();
    expect(settings.get('MODERATOR_CHECK_INTERVAL')).toBe(10);

    const change = await settings.set('moderator_check_interval', ' 4 ', admin);
    expect(change).toEqual({ key: 'MODERATOR_CHECK_INTERVAL', previous: 10, value: 4 });
    expect(settings.effectiveConfig().moderator.checkInterval).toBe(4);
    expect(baseConfig.moderator.checkInterval).toBe(10);
    await settings.set('MODERATOR_PARTICIPANT_BALANCE_CHECK', 'false', admin);
    expect(settings.effectiveConfig().moderator.balanceCheck).toBe(false);
    const audit = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.event === 'setting_changed');
    expect(audit[0]).toMatchObject({ key: 'MODERATOR_CHECK_INTERVAL', previous: 10, value: 4, by: 'Ada', byId: 'u1' });

    const reloaded = service().settings;
    await reloaded.load();
    expect(reloaded.get('MODERATOR_CHECK_INTERVAL')).toBe(4);
    expect(reloaded.list().find((entry) => entry.key === 'MODERATOR_CHECK_INTERVAL')).toEqual({
      key: 'MODERATOR_CHECK_INTERVAL',
      value: 4,
      source: 'override',
    });
    expect(reloaded.list().find((entry) => entry.key === 'MAX_COST_PER_CONVERSATION_USD')?.source).toBe('environment');
  });

  it('rejects a value outside the schema, an unknown key, and secrets or URLs', async () => {
    const { settings } = service();
    await settings.load();
    expect((await errorOf(settings.set('MODERATOR_TOPIC_DRIFT_THRESHOLD', '1.5', admin))).code).toBe('bad_input');
    const often = await errorOf(settings.set('MODERATOR_CHECK_INTERVAL', 'often', admin));
    expect(often.code).toBe('bad_input');
    // In plain words, with the value that stays (zod's "Invalid input: expected number, received NaN" read as a fault).
    expect(often.message).toBe(`MODERATOR_CHECK_INTERVAL must be a number (got "often"); it stays ${String(settings.get('MODERATOR_CHECK_INTERVAL'))}.`);
    expect((await errorOf(settings.set('MODERATOR_CHECK_INTERVAL', '', admin))).code).toBe('bad_input');
    expect((await errorOf(settings.set('NO_SUCH_SETTING', '1', admin))).code).toBe('bad_input');
    expect((await errorOf(settings.set('OPENROUTER_API_KEY', 'sk-x', admin))).code).toBe('forbidden');
    expect((await errorOf(settings.set('NOTION_BASE_URL', 'http://evil', admin))).code).toBe('forbidden');
    expect(settings.get('MODERATOR_TOPIC_DRIFT_THRESHOLD')).toBe(0.6);
  });

  it('resets one key to the environment value and notifies listeners', async () => {
    const { settings } = service();
    await settings.load();
    await settings.set('MAX_COST_PER_CONVERSATION_USD', '2.5', admin);
    const seen: number[] = [];
    const unsubscribe = settings.onChange((config) => {
      seen.push(config.limits.maxCostUsd);
    });
    await settings.reset('MAX_COST_PER_CONVERSATION_USD', admin);
    unsubscribe();
    expect(settings.get('MAX_COST_PER_CONVERSATION_USD')).toBe(5);
    expect(seen).toEqual([5]);
    const reloaded = service().settings;
    await reloaded.load();
    expect(reloaded.get('MAX_COST_PER_CONVERSATION_USD')).toBe(5);
  });

  it('persists !disable and !enable of a participant', async () => {
    const { settings } = service();
    await settings.load();
    await settings.setParticipantEnabled('Grok', false, admin);
    const reloaded = service().settings;
    await reloaded.load();
    expect(reloaded.disabledParticipants()).toEqual(['grok']);
    await reloaded.setParticipantEnabled('grok', true, admin);
    expect(reloaded.disabledParticipants()).toEqual([]);
  });
});
