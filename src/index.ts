import { ConfigError } from './config/config-error.ts';
import { startedByNpm } from './config/launch.ts';
import { loadConfigFromProcess } from './config/load-config.ts';
import { databaseLocationFor, openDatabase } from './db/create-database.ts';
import { listenForStopSignal, npmParentWatch } from './stop-signals.ts';

/**
 * Starts Brainstorm. Only the configuration and the database are loaded first: the database starts opening on its own
 * thread (which npm start began before it loaded the app; a first start copies the template, ~0.1-0.6 s, then PGlite
 * starts Postgres, ~0.7 s) while this thread loads the rest of the app (~0.4 s), instead of after it.
 */
async function main(): Promise<void> {
  const startedAt = Date.now();
  const stopSignal = listenForStopSignal(process, npmParentWatch(startedByNpm()));
  let config;
  try {
    config = loadConfigFromProcess();
  } catch (error) {
    if (ConfigError.isConfigError(error)) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = openDatabase(databaseLocationFor(config.runtime.databaseUrl, config.runtime.dataDir));
  const { runBrainstorm } = await import('./run-brainstorm.ts');
  await runBrainstorm({ config, database, startedAt, stopSignal });
}

main().catch((error: unknown) => {
  process.stderr.write(`Brainstorm failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
