import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { parseSharding, shardOf } from '../../../src/config/sharding.ts';

describe('Discord sharding', () => {
  it('puts a guild on shard (guild_id >> 22) % shard_count, as Discord does', () => {
    // 41771983423143937 >> 22 = 9959216934
    expect(shardOf('41771983423143937', 1)).toBe(0);
    expect(shardOf('41771983423143937', 2)).toBe(0);
    expect(shardOf('41771983423143937', 5)).toBe(4);
    expect(shardOf('175928847299117063', 3)).toBe(2);
  });

  it('reads SHARD_COUNT and SHARD_IDS from the environment; every shard when the ids are left out', () => {
    const environment = buildConfig({ NODE_ENV: 'test', SHARD_COUNT: '4', SHARD_IDS: '3, 1' }).environment;
    expect(parseSharding(environment.SHARD_COUNT, environment.SHARD_IDS)).toEqual({ count: 4, ids: [1, 3] });
    expect(parseSharding(2, undefined)).toEqual({ count: 2, ids: [0, 1] });
    expect(parseSharding(undefined, undefined)).toBeNull();
    expect(buildConfig({ NODE_ENV: 'test', SHARD_COUNT: '' }).environment.SHARD_COUNT).toBeUndefined();
  });

  it('refuses ids outside the count, and ids without a count, naming the variable', () => {
    expect(() => parseSharding(2, '2')).toThrow(ConfigError);
    expect(() => parseSharding(2, 'one')).toThrow(/SHARD_IDS: must list whole numbers from 0 to 1/);
    expect(() => parseSharding(undefined, '0')).toThrow(/SHARD_IDS: is set without SHARD_COUNT/);
  });
});
