import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresCpuMs } from '../../bench/process-cpu.ts';
import { TEST_POSTGRES_URL } from '../support/databases.ts';

const local = process.platform === 'linux' && /@(127\.0\.0\.1|localhost)[:/]/.test(TEST_POSTGRES_URL);

describe.skipIf(!local)('the Postgres server CPU the bench reads', () => {
  it('grows by the work a query makes the server do', async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    try {
      const before = postgresCpuMs();
      expect(before).not.toBeNull();
      await client.query('select sum(sqrt(value)) from generate_series(1, 3000000) as value');
      // /proc counts in ticks of 10 ms, and the query takes several of them on any machine.
      expect(postgresCpuMs()! - before!).toBeGreaterThanOrEqual(20);
    } finally {
      await client.end();
    }
  });
});
