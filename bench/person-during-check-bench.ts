/**
 * human_during_moderator_check_first_visible_ms: the Moderator checks the discussion between rounds, and a check
 * that asks its model (here it takes 2 s) lasts as long as that call. In a quiet room a person's message is answered
 * and a check follows; the person speaks again 50 ms into it. The figure is the time until the first answer to them is
 * visible, models at 400 ms: about one model's latency when the person need not wait for the check (2,368-2,379 ms
 * when the round waited for it, before bb19c94).
 */
import { replies } from '../tests/fakes/openrouter/fake-openrouter.ts';
import { activeSession, firstAnswerTo, percentile, round, say, startBenchApp, stopBenchApp, type BenchResult } from './bench-app.ts';

const MODEL_MS = 400;
const CHECK_MS = 2000;
const SAMPLES = 5;
/** How long the bench waits for a check before it stops with an error instead of waiting for ever. */
const WAIT_MS = 30_000;

/** The figure, over five people's messages, each sent during a check. */
export async function personDuringCheck(): Promise<BenchResult[]> {
  const bench = await startBenchApp(0, 'pglite', 1, { environment: { MODERATOR_CHECK_INTERVAL: '3' } });
  try {
    // Off-topic answers: every check asks the Moderator's model, which lets the talk go on (redirects would end the
    // session after MODERATOR_MAX_DRIFT_WARNINGS).
    for (const name of ['Claude', 'ChatGPT', 'Grok']) {
      const lines = Array.from({ length: 80 }, (_, index) =>
        replies.text(`${name}: did you see the match? Goal ${index} was great.`, { timing: { latencyMs: MODEL_MS } }),
      );
      bench.fake.script({ participant: name }, ...lines);
    }
    const verdict = { action: 'continue', drifting: false, objectivesMet: false, message: '', target: '', reason: 'fine', quality: 3 };
    bench.fake.script({ role: 'moderator' }, ...Array.from({ length: 40 }, () => ({ ...replies.json(verdict), timing: { latencyMs: CHECK_MS } })));
    const session = await activeSession(bench);
    const moderatorRequests = () => bench.fake.chats.filter((chat) => chat.agent.role === 'moderator').length;
    const times: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      // A quiet room (no round, no check), then a message whose round is followed by a check; speak 50 ms into it.
      await bench.app.services.coordinator.idle(session.sessionId);
      const before = moderatorRequests();
      await say(bench, session, `What do we know so far? (${sample})`);
      const deadline = performance.now() + WAIT_MS;
      while (moderatorRequests() === before) {
        if (performance.now() > deadline) throw new Error(`bench: no Moderator check within ${WAIT_MS / 1000} s (sample ${sample})`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const question = `Which option is cheapest to try first? (${sample})`;
      const answered = firstAnswerTo(bench, session.sessionId, question);
      const started = performance.now();
      await say(bench, session, question);
      times.push((await answered) - started);
    }
    return [{ name: 'human_during_moderator_check_first_visible_ms', value: round(percentile(times, 0.5), 1), unit: 'ms' }];
  } finally {
    await stopBenchApp(bench);
  }
}
