import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
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
