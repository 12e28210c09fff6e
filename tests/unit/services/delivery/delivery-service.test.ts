import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { DeliveredMessage, DeliveryProgress, OutgoingMessage, SessionEvent } from '../../../../src/core/ports.ts';
import { DELIVER_MESSAGE_JOB, DeliveryService, roomQueue } from '../../../../src/services/delivery/delivery-service.ts';
import { TransportRegistry } from '../../../../src/services/delivery/transport-registry.ts';
import type { JobHandler } from '../../../../src/services/jobs/job-types.ts';
import type { ClaimedJob } from '../../../../src/repositories/jobs-repository.ts';
import { MemoryTransport } from '../../../support/memory-transport.ts';
import { openRepositories, quietLogger, storeSession, type TestRepositories } from '../../../support/service-doubles.ts';

/** A memory room that keeps what it was asked to deliver. */
class RecordingTransport extends MemoryTransport {
  readonly outgoing: OutgoingMessage[] = [];
  override async deliver(roomId: string, message: OutgoingMessage, progress: DeliveryProgress): Promise<DeliveredMessage> {
    this.outgoing.push(message);
    return super.deliver(roomId, message, progress);
  }
}

const CLAUDE = { kind: 'participant', name: 'Claude' } as const;
const ALICE = { kind: 'human', name: 'Alice', id: 'u-alice' } as const;

/** A delivery service built by hand over real repositories, a memory room and a recording bus. */
async function deliveryFixture(options: { transports?: MemoryTransport[] } = {}) {
  const clock = new ManualClock();
  const repositories = await openRepositories();
  const transports = options.transports ?? [new MemoryTransport()];
  const transport = transports[0]!;
  const events = new InMemoryEventBus();
  const published: SessionEvent[] = [];
  events.subscribe((event) => published.push(event));
  let nudges = 0;
  const queuesRun: string[] = [];
  const service = () =>
    new DeliveryService({
      messages: repositories.messages,
      sessions: repositories.sessions,
      transports: new TransportRegistry(transports),
      clock,
      events,
      logger: quietLogger(),
      simulated: (speaker) => speaker.name === 'Claude',
      sanitizePreview: (text) => text,
      nudgeWorker: () => {
        nudges += 1;
      },
      runQueue: async (queue) => {
        queuesRun.push(queue);
      },
    });
  const delivery = service();
  const session = await storeSession(repositories.sessions, clock);
  /** Claims the due delivery jobs as the job worker would. */
  const claim = (): Promise<ClaimedJob[]> => repositories.jobs.claimDue('worker-1', clock.now(), 60_000, 10, [DELIVER_MESSAGE_JOB]);
  // The same room served by another process's delivery service (over the same database and transport).
  const otherProcess = service();
  return { clock, repositories, transport, delivery, otherProcess, session, published, claim, nudges: () => nudges, queuesRun };
}

/**
 * A question and an answer replying to it, both stored by this process and neither delivered yet (as a participant's
 * answer often replies to another's still on its way), in a recording room; `reads` spies on the delivery's read.
 */
async function answerToPendingQuestion() {
  const recording = new RecordingTransport();
  const fixture = await deliveryFixture({ transports: [recording] });
  open = fixture.repositories;
  const reads = vi.spyOn(fixture.repositories.messages, 'findWithReplyTargets');
  const question = await fixture.delivery.post(fixture.session, CLAUDE, 'Which flags first?');
  const answer = await fixture.delivery.post(fixture.session, { kind: 'participant', name: 'Grok' }, 'The payment path.', { replyTo: [question] });
  return { fixture, recording, reads, question, answer };
}

let open: TestRepositories | null = null;
afterEach(async () => {
  await open?.handle.close();
  open = null;
});

describe('DeliveryService', () => {
  it('stores a message before anything reaches the room, counts it, queues its delivery on the room queue and wakes the worker', async () => {
    const fixture = await deliveryFixture();
    open = fixture.repositories;
    const message = await fixture.delivery.post(fixture.session, CLAUDE, 'Start with a kill switch.', { countsAsMessage: true, model: 'test/claude' });

    expect(message.deliveryStatus).toBe('pending');
    expect((await fixture.repositories.messages.findById(message.id))?.text).toBe('Start with a kill switch.');
    expect(fixture.transport.messages).toEqual([]);
    expect((await fixture.repositories.sessions.findById(fixture.session.id))?.messageCount).toBe(1);
    const jobs = await fixture.repositories.jobs.listForSession(fixture.session.id);
    expect(jobs.map((job) => [job.kind, job.queue])).toEqual([[DELIVER_MESSAGE_JOB, roomQueue(fixture.session)]]);
    expect(fixture.nudges()).toBe(1);
    expect(fixture.published).toContainEqual({ type: 'message', message });
  });

  it('keeps an internal message in the transcript only: no delivery job, no wake-up, not counted', async () => {
    const fixture = await deliveryFixture();
    open = fixture.repositories;
    const message = await fixture.delivery.post(fixture.session, { kind: 'system', name: 'Brainstorm' }, 'internal note', { internal: true });

    expect(message.deliveryStatus).toBe('internal');
    expect(await fixture.repositories.jobs.listForSession(fixture.session.id)).toEqual([]);
    expect(fixture.nudges()).toBe(0);
    expect((await fixture.repositories.sessions.findById(fixture.session.id))?.messageCount).toBe(0);
  });

  it('delivers a queued message with its reply reference and simulated mark, settling message and job in one go', async () => {
    const recording = new RecordingTransport();
    const fixture = await deliveryFixture({ transports: [recording] });
    open = fixture.repositories;
    const question = await fixture.delivery.post(fixture.session, ALICE, 'Which flags first?', { countsAsMessage: true });
    const answer = await fixture.delivery.post(fixture.session, CLAUDE, 'The risky payment path.', { replyTo: [question], countsAsMessage: true });
    const [first, second] = await fixture.claim();
    // The room queue hands out one job at a time, in order.
    expect(second).toBeUndefined();
    expect(await fixture.delivery.deliver(first!)).toEqual({ status: 'settled' });
    const [next] = await fixture.claim();
    expect(next?.payload.messageId).toBe(answer.id);
    expect(await fixture.delivery.deliver(next!)).toEqual({ status: 'settled' });

    const room = fixture.transport.room(fixture.session.roomId);
    expect(room.map((entry) => [entry.speaker, entry.content, entry.simulated])).toEqual([
      ['Alice', 'Which flags first?', false],
      ['Claude', 'The risky payment path.', true],
    ]);
    // The reply reference names the speaker, quotes the start of the message and points at where the room shows it.
    expect(recording.outgoing[1]?.replyTo).toEqual([
      { messageId: question.id, externalId: room[0]?.externalId, speakerName: 'Alice', excerpt: 'Which flags first?', url: null },
    ]);
    const stored = await fixture.repositories.messages.findById(answer.id);
    expect(stored?.deliveryStatus).toBe('delivered');
    expect(stored?.externalIds).toEqual([room[1]?.externalId]);
    // Settled means the job was completed in the statement that marked the message: nothing is left to claim.
    expect(await fixture.claim()).toEqual([]);
    expect(fixture.published.filter((event) => event.type === 'message' && event.message.deliveryStatus === 'delivered')).toHaveLength(2);
  });

  it('sends a message on its first run as it was stored, its reply target as this process delivered it, reading nothing back', async () => {
    const { fixture, recording, reads, question, answer } = await answerToPendingQuestion();
    for (let run = 0; run < 2; run += 1) {
      const [job] = await fixture.claim();
      expect(job?.firstRun).toBe(true);
      expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'settled' });
    }

    expect(reads).not.toHaveBeenCalled();
    const room = fixture.transport.room(fixture.session.roomId);
    expect(recording.outgoing[1]?.replyTo).toEqual([
      { messageId: question.id, externalId: room[0]?.externalId, speakerName: 'Claude', excerpt: 'Which flags first?', url: null },
    ]);
    expect((await fixture.repositories.messages.findById(answer.id))?.externalIds).toEqual([room[1]?.externalId]);
  });

  it('reads the database on a run that is not the first, and for a reply target another process delivered', async () => {
    const { fixture, recording, reads } = await answerToPendingQuestion();
    const [first] = await fixture.claim();
    // Another process delivers the question: this one never saw where it landed.
    expect(await fixture.otherProcess.deliver(first!)).toEqual({ status: 'settled' });
    const [second] = await fixture.claim();
    expect(await fixture.delivery.deliver(second!)).toEqual({ status: 'settled' });
    expect(reads).toHaveBeenCalledTimes(2);
    const room = fixture.transport.room(fixture.session.roomId);
    expect(recording.outgoing[1]?.replyTo.map((reference) => reference.externalId)).toEqual([room[0]?.externalId]);

    // A run after an earlier one (a crash, a retry) may resume a split delivery: it reads what is stored now.
    const third = await fixture.delivery.post(fixture.session, CLAUDE, 'Then the rest.');
    const [job] = await fixture.claim();
    expect(job?.payload.messageId).toBe(third.id);
    await fixture.delivery.deliver({ ...job!, firstRun: false });
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('a delivery job that runs again after its message was delivered posts nothing twice', async () => {
    const fixture = await deliveryFixture();
    open = fixture.repositories;
    await fixture.delivery.post(fixture.session, CLAUDE, 'Once only.');
    const [job] = await fixture.claim();
    await fixture.delivery.deliver(job!);
    expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'done' });
    expect(fixture.transport.room(fixture.session.roomId)).toHaveLength(1);
  });

  it('resumes a split delivery where a crash left it: the chunks already posted are handed to the transport', async () => {
    const seen: DeliveryProgress[] = [];
    class ChunkedTransport extends MemoryTransport {
      override async deliver(roomId: string, message: OutgoingMessage, progress: DeliveryProgress): Promise<DeliveredMessage> {
        seen.push({ ...progress, deliveredExternalIds: [...progress.deliveredExternalIds] });
        if (seen.length === 1) {
          await progress.onChunkDelivered('chunk-1', null);
          throw new Error('connection reset after the first chunk');
        }
        // The last chunk is reported by the return value only: the delivery service stores it with "delivered".
        return { externalIds: [...progress.deliveredExternalIds, 'chunk-2'], url: null };
      }
    }
    const fixture = await deliveryFixture({ transports: [new ChunkedTransport()] });
    open = fixture.repositories;
    const message = await fixture.delivery.post(fixture.session, CLAUDE, 'A long answer in two chunks.');
    const [job] = await fixture.claim();

    // A failure that may heal is thrown to the worker, which retries with backoff.
    await expect(fixture.delivery.deliver(job!)).rejects.toThrow('connection reset');
    expect(await fixture.delivery.deliver({ ...job!, firstRun: false })).toEqual({ status: 'settled' });
    expect(seen.map((progress) => progress.deliveredExternalIds)).toEqual([[], ['chunk-1']]);
    // The run after one that may have posted a chunk it did not record reads the room back from the message's time.
    expect(seen.map((progress) => progress.resumedSince)).toEqual([null, message.createdAt]);
    expect((await fixture.repositories.messages.findById(message.id))?.externalIds).toEqual(['chunk-1', 'chunk-2']);
  });

  it('fails a delivery for good when the transport says retrying cannot help (permission, deleted room)', async () => {
    class ForbiddenTransport extends MemoryTransport {
      override async deliver(): Promise<DeliveredMessage> {
        throw Object.assign(new Error('Missing Access'), { retryable: false });
      }
    }
    const fixture = await deliveryFixture({ transports: [new ForbiddenTransport()] });
    open = fixture.repositories;
    const message = await fixture.delivery.post(fixture.session, CLAUDE, 'Nobody will see this.');
    const [job] = await fixture.claim();
    expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'failed', error: 'Missing Access' });
    expect((await fixture.repositories.messages.findById(message.id))?.deliveryStatus).toBe('pending');
  });

  it('postpones a delivery whose transport runs in another process, and fails one whose message is gone', async () => {
    const fixture = await deliveryFixture({ transports: [new MemoryTransport('local')] });
    open = fixture.repositories;
    await fixture.delivery.post(fixture.session, CLAUDE, 'For the memory room.');
    const [job] = await fixture.claim();
    expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'postpone', afterMs: 5000 });
    expect(await fixture.delivery.deliver({ ...job!, payload: { messageId: 999_999 } })).toEqual({ status: 'failed', error: 'message 999999 not found' });
  });

  it('leaves a delivery to the process that serves the room (another Discord shard): postponed briefly, nothing posted', async () => {
    class OtherShardTransport extends MemoryTransport {
      async handlesRoom(): Promise<boolean> {
        return false;
      }
    }
    const fixture = await deliveryFixture({ transports: [new OtherShardTransport()] });
    open = fixture.repositories;
    const message = await fixture.delivery.post(fixture.session, CLAUDE, 'For the process of the other shard.');
    const [job] = await fixture.claim();
    expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'postpone', afterMs: 200 });
    expect(fixture.transport.messages).toEqual([]);
    expect((await fixture.repositories.messages.findById(message.id))?.deliveryStatus).toBe('pending');
    // That process is gone (its shard down): the delivery waits for it, offered again less and less often.
    await fixture.clock.advance(40_000);
    expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'postpone', afterMs: 2000 });
    await fixture.clock.advance(3_600_000);
    expect(await fixture.delivery.deliver(job!)).toEqual({ status: 'postpone', afterMs: 5000 });
  });

  it('registers the handler of its own job kind, and flushes a room through its queue while one of its messages waits', async () => {
    const fixture = await deliveryFixture();
    open = fixture.repositories;
    const registered = new Map<string, JobHandler>();
    fixture.delivery.registerJobs({ register: (kind, handler) => registered.set(kind, handler) });
    expect([...registered.keys()]).toEqual([DELIVER_MESSAGE_JOB]);
    await fixture.delivery.post(fixture.session, CLAUDE, 'Through the registry.');
    await fixture.delivery.flushRoom(fixture.session);
    expect(fixture.queuesRun).toEqual([roomQueue(fixture.session)]);
    const [job] = await fixture.claim();
    expect(await registered.get(DELIVER_MESSAGE_JOB)!(job!, new AbortController().signal)).toEqual({ status: 'settled' });
    // Its delivery has begun: a flush would only claim nothing behind it.
    await fixture.delivery.flushRoom(fixture.session);
    expect(fixture.queuesRun).toHaveLength(1);
    // Another process's message keeps its place in the queue; this process does not flush for it.
    await fixture.otherProcess.post(fixture.session, CLAUDE, 'From elsewhere.');
    await fixture.delivery.flushRoom(fixture.session);
    expect(fixture.queuesRun).toHaveLength(1);
  });

  it('streams a preview only where the session transport runs here', async () => {
    const fixture = await deliveryFixture();
    open = fixture.repositories;
    expect(fixture.delivery.startStream(fixture.session, CLAUDE)).not.toBeNull();
    expect(fixture.delivery.startStream({ ...fixture.session, transport: 'discord' }, CLAUDE)).toBeNull();
  });
});
