import type { SettingChange } from './settings-service.ts';

/** The timers a setting change must move in sessions that are already running. */
export interface RunningSessionTimers {
  /** Moves every active session's time-limit job to its deadline under the new bound. */
  rescheduleTimeouts(): Promise<void>;
  /** Brings forward the approval timeouts of sessions still planning (a longer timeout is honoured by the job). */
  expeditePlannerTimeouts(minutes: number): Promise<void>;
}

/**
 * Applies a change to running sessions where reading the setting at each use is not enough: a timer
 * already scheduled under the old value. Every other key is read where it acts, at the moment it acts.
 */
export async function applyToRunningSessions(change: SettingChange, timers: RunningSessionTimers): Promise<void> {
  if (change.key === 'CONVERSATION_TIMEOUT_MINUTES') await timers.rescheduleTimeouts();
  if (change.key === 'SESSION_PLANNER_TIMEOUT_MINUTES' && typeof change.value === 'number') await timers.expeditePlannerTimeouts(change.value);
}
