import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { startFakeOpenRouter, type FakeOpenRouter, type FakeOpenRouterOptions } from '../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from './test-app.ts';

/** A test file's fake OpenRouter and the app of its current test, read inside the tests. */
export interface AppOnFakeModels {
  readonly fake: FakeOpenRouter;
  readonly test: TestApp;
}

/**
 * The set-up of an e2e file that drives sessions through the real app: one fake OpenRouter for the file, reset
 * before each test, and a fresh app on it, with `environment` over the fake's, for each test.
 */
export function appOnFakeModels(environment: Record<string, string>): AppOnFakeModels {
  let fake: FakeOpenRouter | undefined;
  let test: TestApp | undefined;
  const suite: AppOnFakeModels = {
    get fake() {
      if (!fake) throw new Error('the fake OpenRouter starts before the first test');
      return fake;
    },
    get test() {
      if (!test) throw new Error('the app starts before each test');
      return test;
    },
  };
  beforeAll(async () => {
    fake = await startFakeOpenRouter();
  });
  afterAll(async () => fake?.close());
  beforeEach(async () => {
    suite.fake.reset();
    test = await startTestApp(fakeEnvironment(suite.fake.url, environment));
  });
  afterEach(async () => test?.stop());
  return suite;
}

/** As `AppOnFakeModels`, with the manual clock the app and the fake's delays share. */
export interface AppOnClockedFakeModels extends AppOnFakeModels {
  readonly clock: ManualClock;
}

/**
 * The set-up of an e2e file whose models take time on the test's clock: for each test a manual clock, a fake OpenRouter
 * whose delays (`timing.latencyMs`) run on it, and an app on both. A model answer still on its way is let through
 * (the clock moves a minute) before the app stops.
 */
export function appOnClockedFakeModels(
  environment: Record<string, string>,
  options: Pick<FakeOpenRouterOptions, 'fallback' | 'latencyMs'> = {},
): AppOnClockedFakeModels {
  let state: { clock: ManualClock; fake: FakeOpenRouter; test: TestApp } | undefined;
  const current = () => {
    if (!state) throw new Error('the clock, the fake OpenRouter and the app start before each test');
    return state;
  };
  beforeEach(async () => {
    const clock = new ManualClock('2026-05-01T09:00:00Z');
    const fake = await startFakeOpenRouter({ ...options, clock });
    state = { clock, fake, test: await startTestApp(fakeEnvironment(fake.url, environment), { clock }) };
  });
  afterEach(async () => {
    if (!state) return;
    await state.clock.advance(60_000);
    await state.test.stop();
    await state.fake.close();
    state = undefined;
  });
  return {
    get clock() {
      return current().clock;
    },
    get fake() {
      return current().fake;
    },
    get test() {
      return current().test;
    },
  };
}
