/**
 * second_person_first_visible_ms: two people in one room; the second speaks 500 ms after the first, while the room
 * still answers the first (models at 400, 1500 and 3000 ms). The figure is the time until the first answer to the
 * second person is visible: about the fastest model's latency when whoever is free answers at once (420 ms; 2,929-2,932
 * ms before 576df99, when the second person waited for the first person's round to end).
 */
import type { Author } from '../src/core/domain.ts';
import { replies } from '../tests/fakes/openrouter/fake-openrouter.ts';
import { activeSession, firstAnswerTo, percentile, round, say, startBenchApp, stopBenchApp, type BenchResult } from './bench-app.ts';

const LATENCIES = { Claude: 400, ChatGPT: 1500, Grok: 3000 } as const;
const SAMPLES = 5;
const SECOND_PERSON: Author = { id: 'bench-second-person', name: 'Bo', isAdmin: false };

/** The figure, over five pairs of people's messages. */
export async function secondPerson(): Promise<BenchResult[]> {
  const bench = await startBenchApp(0, 'pglite', 0);
  try {
    for (const [name, latencyMs] of Object.entries(LATENCIES)) {
      bench.fake.script({ participant: name }, ...Array.from({ length: 30 }, (_, index) => replies.text(`${name} point ${index}.`, { timing: { latencyMs } })));
    }
    const session = await activeSession(bench);
    const times: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      await bench.app.services.coordinator.idle(session.sessionId);
      await say(bench, session, `What matters most here? (${sample})`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const text = `And what would you measure first? (${sample})`;
      const answered = firstAnswerTo(bench, session.sessionId, text);
      const started = performance.now();
      await say(bench, session, text, SECOND_PERSON);
      times.push((await answered) - started);
    }
    return [{ name: 'second_person_first_visible_ms', value: round(percentile(times, 0.5), 1), unit: 'ms' }];
  } finally {
    await stopBenchApp(bench);
  }
}
