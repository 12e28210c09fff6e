/** The Planner's durable job kinds, spelled once (the flow schedules them; the lifecycle drops them at the end). */
export const PLANNER_STEP_JOB = 'planner_step';
export const PLANNER_RESUME_JOB = 'planner_resume';
export const PLANNER_TIMEOUT_JOB = 'planner_timeout';

/** Jobs that run the Planner; an approval supersedes them. */
export const PLANNER_RUN_JOBS: readonly string[] = [PLANNER_STEP_JOB, PLANNER_RESUME_JOB];
