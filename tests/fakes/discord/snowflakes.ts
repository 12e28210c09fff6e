/** Discord-style snowflake ids, increasing, so discord.js derives sane creation times from them. */

const DISCORD_EPOCH = 1_420_070_400_000n;

/** Makes increasing snowflakes from the wall clock of the fake (the fake is a server, not the code under test). */
export class SnowflakeGenerator {
  private increment = 0n;
  private lastTimestamp = 0n;

  /** The next snowflake. */
  next(): string {
    let timestamp = BigInt(Date.now());
    if (timestamp <= this.lastTimestamp) timestamp = this.lastTimestamp;
    if (timestamp !== this.lastTimestamp) this.increment = 0n;
    this.lastTimestamp = timestamp;
    this.increment += 1n;
    if (this.increment > 0xfffn) {
      this.lastTimestamp += 1n;
      this.increment = 1n;
    }
    timestamp = this.lastTimestamp;
    return (((timestamp - DISCORD_EPOCH) << 22n) | this.increment).toString();
  }
}

/** The creation time encoded in a snowflake. */
export function snowflakeTime(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH));
}
