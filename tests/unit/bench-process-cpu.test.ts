import { describe, expect, it } from 'vitest';
import { cpuMsFromStat, mainThreadCpuMs, ownCpuMs } from '../../bench/process-cpu.ts';

describe('process CPU for the bench', () => {
  it('reads user and system ticks after a command name holding spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    const stat = '4242 (postgres: 15/main: (idle) x) S 1 4242 4242 0 -1 4194560 120 0 0 0 250 37 0 0 20 0 1 0';
    expect(cpuMsFromStat(stat)).toBe(2870);
  });

  it("counts this process's CPU as it works", () => {
    const before = ownCpuMs();
    let checksum = 0;
    for (let index = 0; index < 2_000_000; index += 1) checksum += Math.sqrt(index);
    expect(checksum).toBeGreaterThan(0);
    expect(ownCpuMs()).toBeGreaterThan(before);
  });

  it.skipIf(process.platform !== 'linux')('counts the main thread, where this loop runs, in ticks of 10 ms', () => {
    const before = mainThreadCpuMs()!;
    const until = ownCpuMs() + 100;
    while (ownCpuMs() < until) Math.sqrt(Math.random());
    expect(mainThreadCpuMs()! - before).toBeGreaterThanOrEqual(50);
  });
});
