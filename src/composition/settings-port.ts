import type { AppConfig } from '../config/app-config.ts';
import type { Logger } from '../logging/logger.ts';
import type { Clock } from '../core/clock.ts';
import type { AdminSettingsPort } from '../services/commands/command-service.ts';
import { SettingsService, type SettingListener } from '../services/settings/settings-service.ts';
import type { Repositories } from './build-repositories.ts';
import type { DatabaseSignals } from '../db/postgres-signals.ts';
import { SETTINGS_CHANNEL } from '../repositories/settings-repository.ts';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The settings service, plus the `!config` replies the command table shows. With `signals` (several processes on one
 * Postgres) a change made in one process is read again by every other: `!config` or `!disable` handled by a process
 * changed its own copy alone, and the others ran on the old values until they restarted.
 */
export function createSettingsPort(dependencies: { repositories: Repositories; config: AppConfig; clock: Clock; logger: Logger; signals?: DatabaseSignals }) {
  const { repositories, signals, logger } = dependencies;
  const service = new SettingsService({
    store: repositories.settings,
    baseConfig: dependencies.config,
    clock: dependencies.clock,
    logger,
    ...(signals && {
      announce: () =>
        void repositories.settings
          .announceChange()
          .catch((error: unknown) => logger.warn({ err: error }, 'could not tell the other processes of a setting change')),
    }),
  });
  if (signals) {
    const reload = () => void service.load().catch((error: unknown) => logger.warn({ err: error }, 'could not read the settings another process changed'));
    signals.listen(SETTINGS_CHANNEL, reload);
    // A notice sent while the listening connection was being made again was not heard.
    signals.onListening(reload);
  }
  const port: AdminSettingsPort = {
    async apply(setting, value, by) {
      const change = await service.set(setting, value, by);
      return `\`${change.key}\` is now \`${shown(change.value)}\` (was \`${shown(change.previous)}\`).`;
    },
    async describe() {
      const rows = service.list().map((entry) => `\`${entry.key}\` = \`${shown(entry.value)}\`${entry.source === 'override' ? ' *(changed)*' : ''}`);
      return ['**Settings** — change with `!config <setting> <value>`', ...rows].join('\n');
    },
  };
  return Object.assign(port, {
    load: () => service.load(),
    effectiveConfig: () => service.effectiveConfig(),
    disabledParticipants: () => service.disabledParticipants(),
    setParticipantEnabled: (id: string, enabled: boolean, actor: { id: string; name: string }) => service.setParticipantEnabled(id, enabled, actor),
    onChange: (listener: SettingListener) => service.onChange(listener),
  });
}
