import type { AppConfig } from '../config/app-config.ts';
import type { Logger } from '../logging/logger.ts';
import type { Clock } from '../core/clock.ts';
import type { AdminSettingsPort } from '../services/commands/command-service.ts';
import { SettingsService, type SettingListener } from '../services/settings/settings-service.ts';
import type { Repositories } from './build-repositories.ts';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The settings service, plus the `!config` replies the command table shows. */
export function createSettingsPort(dependencies: { repositories: Repositories; config: AppConfig; clock: Clock; logger: Logger }) {
  const service = new SettingsService({
    store: dependencies.repositories.settings,
    baseConfig: dependencies.config,
    clock: dependencies.clock,
    logger: dependencies.logger,
  });
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
