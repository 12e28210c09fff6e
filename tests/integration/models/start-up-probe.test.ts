import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { fakeEnvironment, startTestApp } from '../../support/test-app.ts';

it('start-up waits for neither the embeddings probe nor the models list: a slow provider delays a log line, not readiness', async () => {
  const held: Array<{ path: string; response: ServerResponse }> = [];
  let probed: () => void = () => undefined;
  // Both requests of start-up: the embeddings probe and the models list (context windows, prices).
  const probeArrived = new Promise<void>((resolve) => (probed = resolve));
  // An OpenAI-compatible endpoint that takes its time with every request (as a distant provider may).
  const provider = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      held.push({ path: request.url ?? '', response });
      if (held.length === 2) probed();
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/api/v1`;
  try {
    const test = await startTestApp(fakeEnvironment(url));
    expect(test.app.ready()).toBe(true);
    await probeArrived;
    expect(held.map((entry) => entry.path).sort()).toEqual(['/api/v1/embeddings', '/api/v1/models']);
    for (const entry of held) entry.response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"busy","code":503}}');
    await test.stop();
  } finally {
    provider.closeAllConnections();
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  }
}, 30_000);
