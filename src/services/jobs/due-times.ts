/**
 * The due times of jobs this worker knows will fall due (its own retries and postponements), so an idle worker sleeps
 * until the earliest instead of polling often: a delivery Discord asked to wait 300 ms goes out then, not at the next
 * poll.
 */
export class DueTimes {
  /** Clock milliseconds, ascending. */
  private readonly times: number[] = [];

  /** Remembers a job due at `time` (clock ms). */
  add(time: number): void {
    let index = this.times.length;
    while (index > 0 && this.times[index - 1]! > time) index -= 1;
    this.times.splice(index, 0, time);
  }

  /** Forgets the times up to `now`: a claim made at `now` takes those jobs (unless another worker took them). */
  passed(now: number): void {
    let count = 0;
    while (count < this.times.length && this.times[count]! <= now) count += 1;
    this.times.splice(0, count);
  }

  /** How long an idle worker sleeps at `now`: until the earliest known due time, `pollMs` at most. */
  waitMs(now: number, pollMs: number): number {
    const earliest = this.times[0];
    return earliest === undefined ? pollMs : Math.max(0, Math.min(pollMs, earliest - now));
  }
}
