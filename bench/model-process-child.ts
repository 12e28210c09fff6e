/** The child side of model-process.ts: serves the fake OpenRouter and takes scripts over IPC. */
import { startFakeOpenRouter } from '../tests/fakes/openrouter/fake-openrouter.ts';
import type { ModelProcessOptions, ModelProcessReply, ModelProcessRequest } from './model-process.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as ModelProcessOptions;
const fake = await startFakeOpenRouter(options);
const send = (reply: ModelProcessReply) => process.send?.(reply);
process.on('message', (request: ModelProcessRequest) => {
  if (request.type === 'count') {
    const byRole: Record<string, number> = {};
    for (const chat of fake.chats) byRole[chat.agent.role] = (byRole[chat.agent.role] ?? 0) + 1;
    send({ type: 'counted', id: request.id, byRole });
    return;
  }
  fake.script(request.target, ...request.replies);
  send({ type: 'scripted', id: request.id });
});
process.on('disconnect', () => void fake.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
send({ type: 'ready', url: fake.url });
