/** Discord sharding from SHARD_COUNT and SHARD_IDS: which guilds' events and sessions this process handles. */
import { ConfigError } from './config-error.ts';

/** The shards of this process out of `count`. */
export interface Sharding {
  count: number;
  ids: number[];
}

/** Parses SHARD_COUNT / SHARD_IDS; null when unset (one process, every guild). Throws a ConfigError when they disagree. */
export function parseSharding(count: number | undefined, ids: string | undefined): Sharding | null {
  if (count === undefined) {
    if (ids) throw new ConfigError('SHARD_IDS', 'is set without SHARD_COUNT: set both, or neither.');
    return null;
  }
  const parsed = (ids ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);
  const chosen = parsed.length > 0 ? parsed : Array.from({ length: count }, (_, index) => index);
  const bad = chosen.find((id) => !Number.isInteger(id) || id < 0 || id >= count);
  if (bad !== undefined) throw new ConfigError('SHARD_IDS', `must list whole numbers from 0 to ${count - 1} (SHARD_COUNT=${count}); got ${ids}.`);
  return { count, ids: [...new Set(chosen)].sort((left, right) => left - right) };
}

/** The shard a guild belongs to, as Discord computes it: `(guild_id >> 22) % shard_count`. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}
