import { describe, expect, it } from 'vitest';
import { recalledRawUsage, rememberRawUsage } from '../../../../src/agents/models/usage-ledger.ts';

describe('usage ledger', () => {
  it('keeps the 5000 most recently remembered response ids: remembering one again keeps it, recalling it does not', () => {
    for (let index = 0; index < 5000; index += 1) rememberRawUsage(`response-${index}`, { cost: index });
    rememberRawUsage('response-0', { cost: 0.5 });
    expect(recalledRawUsage('response-1')).toEqual({ cost: 1 });
    rememberRawUsage('response-5000', { cost: 5000 });
    expect(recalledRawUsage('response-0')).toEqual({ cost: 0.5 });
    expect(recalledRawUsage('response-1')).toBeUndefined();
    expect(recalledRawUsage('response-2')).toEqual({ cost: 2 });
    rememberRawUsage('response-5001', { cost: 5001 });
    expect(recalledRawUsage('response-2')).toBeUndefined();
    expect(recalledRawUsage('response-5001')).toEqual({ cost: 5001 });
  });

  it('ignores a response without an id or usage', () => {
    rememberRawUsage(undefined, { cost: 1 });
    rememberRawUsage('no-usage', undefined);
    expect(recalledRawUsage('no-usage')).toBeUndefined();
    expect(recalledRawUsage(undefined)).toBeUndefined();
  });

  it('forgets the usage of an id when a later response with that id brings none (servers that reuse ids)', () => {
    rememberRawUsage('chatcmpl-7', { prompt_tokens: 12, cost: 0.003 });
    rememberRawUsage('chatcmpl-7', undefined);
    expect(recalledRawUsage('chatcmpl-7')).toBeUndefined();
  });
});
