import { describe, expect, it } from 'vitest';
import { UnfinishedClaims } from '../../../../src/services/gateway/unfinished-claims.ts';

describe('UnfinishedClaims', () => {
  it('remembers a message by transport and id until it is forgotten', () => {
    const claims = new UnfinishedClaims();
    claims.add('discord', '1');
    expect(claims.has('discord', '1')).toBe(true);
    expect(claims.has('local', '1')).toBe(false);
    claims.delete('discord', '1');
    expect(claims.has('discord', '1')).toBe(false);
  });

  it('forgets the oldest past its capacity, counting a message added again as new', () => {
    const claims = new UnfinishedClaims(2);
    claims.add('discord', '1');
    claims.add('discord', '2');
    claims.add('discord', '1');
    claims.add('discord', '3');
    expect(['1', '2', '3'].filter((id) => claims.has('discord', id))).toEqual(['1', '3']);
  });
});
