/**
 * The fake models in a process of their own, as real models run on another machine: a turn's figures then hold
 * only our code's work, not the fake server's. The bench scripts replies over IPC, acknowledged before it goes on.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { FakeOpenRouterOptions, ScriptTarget } from '../tests/fakes/openrouter/fake-openrouter.ts';
import type { SimulatedReply } from '../src/simulator/chat-types.ts';

/** What the bench says to the model process. */
export type ModelProcessRequest = { type: 'script'; id: number; target: ScriptTarget; replies: SimulatedReply[] } | { type: 'count'; id: number };
/** What the model process answers. */
export type ModelProcessReply =
  { type: 'ready'; url: string } | { type: 'scripted'; id: number } | { type: 'counted'; id: number; byRole: Record<string, number> };

/** Fake models served by a child process. */
export interface ModelProcess {
  url: string;
  /** Queues replies for a target (as `FakeOpenRouter.script`), resolved once the child has them. */
  script(target: ScriptTarget, ...replies: SimulatedReply[]): Promise<void>;
  /** Chat requests served so far, by the role of the agent that asked (participant, moderator, scribe, ...). */
  requestsByRole(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** Options the fake takes that survive JSON (no clock). */
export type ModelProcessOptions = Omit<FakeOpenRouterOptions, 'clock'>;

function nextReply(child: ChildProcess, accept: (reply: ModelProcessReply) => boolean): Promise<ModelProcessReply> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ModelProcessReply) => {
      if (!accept(message)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`the model process exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Starts the fake OpenRouter in a child process and resolves when it listens. */
export async function startModelProcess(options: ModelProcessOptions = {}): Promise<ModelProcess> {
  const child = fork(new URL('./model-process-child.ts', import.meta.url).pathname, [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await nextReply(child, (message) => message.type === 'ready');
  if (ready.type !== 'ready') throw new Error('the model process did not start');
  let requests = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: ready.url,
    async script(target, ...replies) {
      requests += 1;
      const id = requests;
      const acknowledged = nextReply(child, (message) => message.type === 'scripted' && message.id === id);
      child.send({ type: 'script', id, target, replies } satisfies ModelProcessRequest);
      await acknowledged;
    },
    async requestsByRole() {
      requests += 1;
      const id = requests;
      const counted = nextReply(child, (message) => message.type === 'counted' && message.id === id);
      child.send({ type: 'count', id } satisfies ModelProcessRequest);
      const reply = await counted;
      return reply.type === 'counted' ? reply.byRole : {};
    },
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
