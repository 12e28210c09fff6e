/**
 * The machine's own speed, printed first so the other figures can be read against it: machines of one kind differ
 * (the same commit's turn overhead measured 25 ms on one and 63 ms on another), and without a yardstick a slower
 * machine looks like a regression. None of these touch Brainstorm's code.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { TEST_POSTGRES_URL } from '../tests/support/databases.ts';
import { percentile, round, type BenchResult } from './bench-app.ts';

/** A chat-shaped payload of about 10 KB, as a participant's model request carries. */
const PAYLOAD = {
  model: 'anthropic/claude-sonnet-4',
  messages: Array.from({ length: 12 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `[Speaker ${index}]: we should weigh rollout safety against delivery speed, because flags add operational cost. `.repeat(8),
  })),
};

/** One round of the fixed CPU work: serialising, parsing and scanning text, as a turn does, many times over. */
function cpuWork(): number {
  let checksum = 0;
  for (let round = 0; round < 400; round += 1) {
    const text = JSON.stringify(PAYLOAD);
    const parsed = JSON.parse(text) as typeof PAYLOAD;
    checksum += parsed.messages.length + (text.match(/rollout/g)?.length ?? 0);
    const words = new Map<string, number>();
    for (const word of text.split(' ')) words.set(word, (words.get(word) ?? 0) + 1);
    checksum += words.size;
  }
  return checksum;
}

/** machine_cpu_ms: the median of 7 runs of the fixed CPU work (lower is a faster machine). */
function cpuFigure(): BenchResult {
  cpuWork();
  const times: number[] = [];
  for (let run = 0; run < 7; run += 1) {
    const started = performance.now();
    cpuWork();
    times.push(performance.now() - started);
  }
  return { name: 'machine_cpu_ms', value: round(percentile(times, 0.5), 1), unit: 'ms' };
}

/** machine_loopback_http_us: the median round trip of a small HTTP request to a server in this process, over 127.0.0.1. */
async function loopbackFigure(): Promise<BenchResult> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const times: number[] = [];
    for (let request = 0; request < 600; request += 1) {
      const started = performance.now();
      await (await fetch(url)).text();
      if (request >= 100) times.push((performance.now() - started) * 1000);
    }
    return { name: 'machine_loopback_http_us', value: round(percentile(times, 0.5), 0), unit: 'us' };
  } finally {
    server.close();
  }
}

/** machine_postgres_round_trip_us: the median `SELECT 1` on the Postgres server the tests use; none when it is not there. */
async function postgresFigure(): Promise<BenchResult[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
  } catch {
    return [];
  }
  try {
    const times: number[] = [];
    for (let query = 0; query < 1200; query += 1) {
      const started = performance.now();
      await client.query('SELECT 1');
      if (query >= 200) times.push((performance.now() - started) * 1000);
    }
    return [{ name: 'machine_postgres_round_trip_us', value: round(percentile(times, 0.5), 0), unit: 'us' }];
  } finally {
    await client.end();
  }
}

/** The machine group: its CPU, loopback and Postgres round-trip speed. */
export const runMachineBench = async (): Promise<BenchResult[]> => [cpuFigure(), await loopbackFigure(), ...(await postgresFigure())];
