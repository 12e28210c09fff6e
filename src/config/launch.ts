/** How this process was launched, read before the configuration is (the stop signals are heard from the start). */

/** Whether npm started this process (`npm start`): npm sets `npm_lifecycle_event` for the scripts it runs. */
export function startedByNpm(environment: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(environment['npm_lifecycle_event']);
}
