import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresCpuSince, postgresCpuSnapshot } from '../../bench/process-cpu.ts';
import { TEST_POSTGRES_URL } from '../support/databases.ts';

const local = process.platform === 'linux' && /@(127\.0\.0\.1|localhost)[:/]/.test(TEST_POSTGRES_URL);

describe.skipIf(!local)('the Postgres server CPU the bench reads', () => {
  it("grows by the work a query makes this test's backend do", async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    try {
      const before = postgresCpuSnapshot();
      expect(before).not.toBeNull();
      const backend = String((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
      expect(before!.has(backend)).toBe(true);
      await client.query('select sum(sqrt(value)) from generate_series(1, 3000000) as value');
      // /proc counts in ticks of 10 ms, and the query takes several of them on any machine. Other tests' backends
      // may end meanwhile: they are left out, never subtracted.
      expect(postgresCpuSince(before!)).toBeGreaterThanOrEqual(20);
    } finally {
      await client.end();
    }
  });
});
