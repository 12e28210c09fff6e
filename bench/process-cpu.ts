/**
 * CPU time of this process and of the local Postgres server, to print what a turn costs in CPU. Wall-clock figures
 * on a two-core machine move with whatever else is scheduled; CPU per turn is what decides how many turns a core
 * can carry, and it moves much less between runs.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of Linux's /proc/<pid>/stat times (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/** This process's CPU time (user and system) in milliseconds. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * This process's main thread's CPU time in milliseconds (Linux: its task has the process's id), or null elsewhere.
 * Our code runs there, so this bounds the turns a process can carry; V8's collector helpers and PGlite's thread run
 * beside it on other cores.
 */
export function mainThreadCpuMs(): number | null {
  return statFileCpuMs(`/proc/self/task/${process.pid}/stat`);
}

/** The user and system CPU time in milliseconds that a /proc/<pid>/stat line holds. */
export function cpuMsFromStat(stat: string): number {
  // The fields after the command name, which is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The CPU time in milliseconds of a /proc stat file, or null when it cannot be read (its task ended, or none here). */
function statFileCpuMs(path: string): number | null {
  try {
    return cpuMsFromStat(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The CPU time in milliseconds of each local Postgres server process (the postmaster and its backends), by pid. */
export type PostgresCpuSnapshot = ReadonlyMap<string, number>;

/**
 * The CPU time of every local Postgres server process, or null where /proc cannot show them (not Linux, or a server
 * on another host): then there is no figure to print.
 */
export function postgresCpuSnapshot(): PostgresCpuSnapshot | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  const snapshot = new Map<string, number>();
  for (const pid of entries) {
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const program = commandLine.split('\0')[0] ?? '';
    // Backends rename themselves ("postgres: 15/main: ..."); the postmaster keeps its path.
    if (!program.startsWith('postgres') && !program.endsWith('/postgres')) continue;
    const cpu = statFileCpuMs(`/proc/${pid}/stat`);
    if (cpu !== null) snapshot.set(pid, cpu);
  }
  return snapshot.size > 0 ? snapshot : null;
}

/**
 * The Postgres server's CPU since `before`, in milliseconds: what each of its processes alive now used since then (all
 * of it for one started since). A backend that ended meanwhile takes its time with it; it is left out rather than
 * subtracted, so the figure never goes below zero when a connection closes.
 */
export function postgresCpuSince(before: PostgresCpuSnapshot): number | null {
  const now = postgresCpuSnapshot();
  if (now === null) return null;
  let total = 0;
  for (const [pid, cpu] of now) total += cpu - (before.get(pid) ?? 0);
  return total;
}
