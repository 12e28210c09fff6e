import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config.ts';
import { environmentSchema } from '../../config/env-schema.ts';
import { describeValueIssue, quotedValue } from '../../config/value-issue.ts';
import type { Clock } from '../../core/clock.ts';
import { BrainstormError } from '../../core/errors.ts';
import {
  CONFIG_APPLIERS,
  isTunableKey,
  restartReason,
  settingKeyOf,
  settingsMeant,
  TUNABLE_SETTING_KEYS,
  type TunableSettingKey,
  type TunableValue,
} from './tunable-settings.ts';

/** Where settings are persisted (the `SettingsRepository` fits). */
export interface SettingsStore {
  all(): Promise<Record<string, unknown>>;
  set(key: string, value: unknown, updatedBy: string, now: Date): Promise<void>;
  remove(key: string): Promise<void>;
}

/** One setting as `!config` lists it. */
export interface SettingEntry {
  key: TunableSettingKey;
  value: TunableValue;
  source: 'override' | 'environment';
}

/** Who changed a setting (for the audit log). */
export interface SettingActor {
  id: string;
  name: string;
}

/** What a change did. */
export interface SettingChange {
  key: string;
  previous: unknown;
  value: unknown;
}

/** Told of every change, after it is stored; awaited, so running sessions are updated before the reply. */
export type SettingListener = (config: AppConfig, change: SettingChange) => void | Promise<void>;

/** The stored key that holds the participants an admin disabled. */
export const DISABLED_PARTICIPANTS_KEY = 'participants.disabled';

/**
 * Admin settings (`!config`, `!enable`, `!disable`): validated against the environment schema, limited
 * to an allow-list of run-time knobs (never keys, tokens or URLs), persisted, and audited in the log.
 */
export class SettingsService {
  private overrides = new Map<TunableSettingKey, TunableValue>();
  private disabled: string[] = [];
  private readonly listeners = new Set<SettingListener>();

  constructor(
    private readonly dependencies: {
      store: SettingsStore;
      baseConfig: AppConfig;
      clock: Clock;
      logger: Logger;
      /** Tells the other processes sharing the store that a setting changed (they read them again); absent alone. */
      announce?: () => void;
    },
  ) {}

  /** Reads the persisted overrides; a stored value the schema no longer accepts is dropped with a warning. */
  async load(): Promise<void> {
    const stored = await this.dependencies.store.all();
    this.overrides.clear();
    for (const [key, raw] of Object.entries(stored)) {
      if (key === DISABLED_PARTICIPANTS_KEY) {
        this.disabled = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string') : [];
        continue;
      }
      if (!isTunableKey(key)) continue;
      const parsed = this.parse(key, raw);
      if (parsed.ok) this.overrides.set(key, parsed.value);
      else this.dependencies.logger.warn({ event: 'setting_ignored', key }, 'stored setting no longer valid; using the environment value');
    }
  }

  /** The effective value of a tunable key: the override, else the environment's value. */
  get(key: TunableSettingKey): TunableValue {
    return this.overrides.has(key) ? (this.overrides.get(key) as TunableValue) : this.dependencies.baseConfig.environment[key];
  }

  /** Every tunable key with its effective value and where it comes from. */
  list(): SettingEntry[] {
    return TUNABLE_SETTING_KEYS.map((key) => ({ key, value: this.get(key), source: this.overrides.has(key) ? 'override' : 'environment' }));
  }

  /** The AppConfig with every override applied (read it per use so changes apply at once). */
  effectiveConfig(): AppConfig {
    let config = this.dependencies.baseConfig;
    for (const [key, value] of this.overrides) config = CONFIG_APPLIERS[key](config, value as never);
    return config;
  }

  /** `!config <setting> <value>`: validates, persists, audits. Throws `bad_input` with a helpful message. */
  async set(rawKey: string, rawValue: string, actor: SettingActor): Promise<SettingChange> {
    const key = this.resolveKey(rawKey);
    if (rawValue.trim() === '') throw new BrainstormError('bad_input', `${key} needs a value, e.g. \`!config ${key} ${String(this.get(key))}\`.`);
    const parsed = this.parse(key, rawValue.trim());
    if (!parsed.ok)
      throw new BrainstormError('bad_input', `${key} ${parsed.message} (got ${quotedValue(rawValue.trim())}); it stays ${String(this.get(key))}.`);
    const previous = this.get(key);
    await this.dependencies.store.set(key, parsed.value, actor.id, this.dependencies.clock.now());
    this.overrides.set(key, parsed.value);
    await this.audit({ key, previous, value: parsed.value }, actor);
    return { key, previous, value: parsed.value };
  }

  /** Returns a key (or every key, when none is given) to the environment's value. */
  async reset(rawKey: string | null, actor: SettingActor): Promise<SettingChange[]> {
    const keys = rawKey ? [this.resolveKey(rawKey)] : [...this.overrides.keys()];
    const changes: SettingChange[] = [];
    for (const key of keys) {
      const previous = this.get(key);
      await this.dependencies.store.remove(key);
      this.overrides.delete(key);
      const change = { key, previous, value: this.get(key) };
      await this.audit(change, actor);
      changes.push(change);
    }
    return changes;
  }

  /** Participant ids an admin has disabled (`!disable`), for every new turn. */
  disabledParticipants(): string[] {
    return [...this.disabled];
  }

  /** `!enable <ai>` / `!disable <ai>`: persists the roster-wide switch. */
  async setParticipantEnabled(participantId: string, enabled: boolean, actor: SettingActor): Promise<SettingChange> {
    const id = participantId.toLowerCase();
    const previous = [...this.disabled];
    const next = enabled ? previous.filter((entry) => entry !== id) : [...new Set([...previous, id])];
    await this.dependencies.store.set(DISABLED_PARTICIPANTS_KEY, next, actor.id, this.dependencies.clock.now());
    this.disabled = next;
    const change = { key: DISABLED_PARTICIPANTS_KEY, previous, value: next };
    await this.audit(change, actor);
    return change;
  }

  /** Calls `listener` with the new effective config after every change; returns an unsubscribe function. */
  onChange(listener: SettingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private resolveKey(rawKey: string): TunableSettingKey {
    const key = settingKeyOf(rawKey);
    if (isTunableKey(key)) return key;
    if (key in environmentSchema.shape) throw new BrainstormError('forbidden', `${key} cannot be changed at run time: ${restartReason(key)}`);
    const meant = settingsMeant(key);
    const unknown = `Unknown setting "${rawKey.trim()}".`;
    if (meant.length === 0) throw new BrainstormError('bad_input', `${unknown} Settings you can change: ${TUNABLE_SETTING_KEYS.join(', ')}.`);
    const names = meant.map((name) => `\`${name}\``).join(' or ');
    throw new BrainstormError('bad_input', `${unknown} Did you mean ${names}? \`!config\` lists every setting with its value.`);
  }

  private parse(key: TunableSettingKey, raw: unknown): { ok: true; value: TunableValue } | { ok: false; message: string } {
    const text = typeof raw === 'string' ? raw : String(raw);
    const result = environmentSchema.shape[key].safeParse(text);
    if (result.success) return { ok: true, value: result.data };
    return { ok: false, message: describeValueIssue(result.error.issues[0]) };
  }

  private async audit(change: SettingChange, actor: SettingActor): Promise<void> {
    this.dependencies.logger.info({ event: 'setting_changed', ...change, by: actor.name, byId: actor.id }, `setting ${change.key} changed by ${actor.name}`);
    this.dependencies.announce?.();
    const config = this.effectiveConfig();
    for (const listener of this.listeners) await listener(config, change);
  }
}
