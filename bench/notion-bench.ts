/**
 * Notion benchmark: requests per 100 messages of a session (debounced Scribe every 60 s, TLDR every 600 s, a
 * message every 5 s of simulated time) and how many 429s the fake's 3 req/s limit returned under our limiter.
 */
import { setTraceProcessors } from '@openai/agents';
import { ManualClock } from '../src/core/clock.ts';
import type { Speaker } from '../src/core/domain.ts';
import { startFakeNotion } from '../tests/fakes/notion/fake-notion.ts';
import { createDocumentationHarness } from '../tests/integration/documentation/documentation-harness.ts';
import { openAppTestDatabase } from '../tests/support/databases.ts';

/** One measured figure. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const MESSAGES = 100;
const SPEAKERS: Speaker[] = [
  { kind: 'human', name: 'Ada' },
  { kind: 'participant', name: 'Claude' },
  { kind: 'participant', name: 'GPT' },
  { kind: 'participant', name: 'Grok' },
];

/** Runs the benchmark and returns `notion_requests_per_100_messages` (target <= 25) and `notion_429_count` (target 0). */
export async function runNotionBench(): Promise<BenchResult[]> {
  setTraceProcessors([]);
  const clock = new ManualClock('2026-01-01T09:00:00Z');
  const fake = await startFakeNotion({ clock });
  const handle = await openAppTestDatabase();
  try {
    const harness = createDocumentationHarness(handle, { notion: fake, clock, scribeIntervalSeconds: 60, tldrIntervalSeconds: 600 });
    await harness.newSession('ses_bench', 'Caching strategy for the public API');
    for (let index = 0; index < MESSAGES; index += 1) {
      const speaker = SPEAKERS[index % SPEAKERS.length] as Speaker;
      await harness.say('ses_bench', speaker, `${speaker.name} makes point ${index} about cache invalidation and TTLs.`);
      await clock.advance(5_000);
      await harness.runDue();
    }
    for (let step = 0; step < 50; step += 1) {
      await clock.advance(15_000);
      await harness.runDue();
    }
    return [
      { name: 'notion_requests_per_100_messages', value: (fake.requests.length * 100) / MESSAGES, unit: 'requests' },
      { name: 'notion_429_count', value: fake.rateLimited, unit: 'responses' },
      { name: 'notion_limit_violations', value: fake.violations, unit: 'requests' },
    ];
  } finally {
    await fake.close();
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const result of await runNotionBench()) console.log(`${result.name}: ${result.value} ${result.unit}`);
}
