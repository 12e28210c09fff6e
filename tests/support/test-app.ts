import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../src/app.ts';
import { buildConfig } from '../../src/config/load-config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { sequentialIds } from '../../src/core/ids.ts';
import type { Author } from '../../src/core/domain.ts';
import type { GatewayReply } from '../../src/core/ports.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { MemoryTransport } from './memory-transport.ts';
import { openAppTestDatabase } from './databases.ts';
import { startQuietTicker } from './quiet-ticker.ts';

/** An app on a ManualClock with the in-memory transport, pointed at a fake OpenRouter. */
export interface TestApp {
  app: App;
  clock: ManualClock;
  transport: MemoryTransport;
  /** Runs due jobs and waits for coordinator rounds until nothing is left to do. */
  settle(): Promise<void>;
  /** A person writes in a room (null = the brainstorm channel: a new topic). */
  say(roomId: string | null, content: string, author?: Author): Promise<GatewayReply | null>;
  command(roomId: string, name: string, args?: string, author?: Author): Promise<GatewayReply>;
  stop(): Promise<void>;
}

/** A person in tests. */
export const alice: Author = { id: 'u-alice', name: 'Alice', isAdmin: false };
/** An admin in tests. */
export const admin: Author = { id: 'u-admin', name: 'Ada', isAdmin: true };

/** Environment for an app talking to the fake OpenRouter at `url`. */
export function fakeEnvironment(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'brainstorm-test-')),
    OPENROUTER_API_KEY: 'test-openrouter-key',
    OPENROUTER_BASE_URL: url,
    SCRIBE_UPDATE_INTERVAL: '60',
    ...extra,
  };
}

let externalCounter = 0;

/** Builds and starts a test app. */
export async function startTestApp(
  environment: Record<string, string>,
  options: Partial<AppOptions> & { clock?: ManualClock; transport?: MemoryTransport; resume?: boolean } = {},
): Promise<TestApp> {
  const clock = options.clock ?? new ManualClock('2026-05-01T09:00:00Z');
  const transport = options.transport ?? new MemoryTransport();
  // Simulated participants answer at once in tests unless a test asks for the readable demo pace.
  const config = buildConfig({ DEMO_PACE: 'fast', ...environment });
  const app = await createApp({
    config,
    clock,
    ids: sequentialIds(),
    logger: createLogger({ level: process.env.TEST_LOG === '1' ? 'error' : 'silent', secrets: [] }),
    database: options.database ?? (await openAppTestDatabase()),
    transports: [transport],
    runWorker: false,
    ...options,
  });
  // `resume: false`: the caller resumes the sessions itself, after its transport read back what was said meanwhile.
  await app.start({ resume: options.resume ?? true });
  const settle = async () => {
    const stopTicker = startQuietTicker(clock, () => app.services.coordinator.deadlineSleepers);
    try {
      for (let round = 0; round < 500; round += 1) {
        const ran = await app.worker.runDue();
        await app.services.coordinator.idle();
        const busy = app.services.coordinator.busySessions().length;
        if (ran === 0 && busy === 0 && (await app.worker.runDue()) === 0) return;
      }
      throw new Error('the app did not settle after 500 rounds');
    } finally {
      stopTicker();
    }
  };
  return {
    app,
    clock,
    transport,
    settle,
    say: (roomId, content, author = alice) => {
      externalCounter += 1;
      return app.gateway.handleMessage({ transport: transport.name, roomId, channelId: 'brainstorm', externalId: `ext-${externalCounter}`, author, content });
    },
    command: (roomId, name, args = '', author = alice) =>
      app.gateway.runCommand({ transport: transport.name, roomId, channelId: 'brainstorm', author, name, args }),
    stop: () => app.stop(),
  };
}
