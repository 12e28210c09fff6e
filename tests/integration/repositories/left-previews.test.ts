import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import type { Transport } from '../../../src/core/ports.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { StreamPreviewsRepository } from '../../../src/repositories/stream-previews-repository.ts';
import { LeftPreviews } from '../../../src/services/delivery/left-previews.ts';
import { TransportRegistry } from '../../../src/services/delivery/transport-registry.ts';
import { MemoryTransport } from '../../support/memory-transport.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const logger = createLogger({ level: 'silent', secrets: [] });

/** A room transport whose previews outlive the process (as Discord's): it records what it was asked to remove. */
class KeptPreviewsTransport extends MemoryTransport implements Transport {
  readonly removed: string[] = [];
  failRemovals = 0;
  /** Called before each removal (a test reads the rows the sweep left so far). */
  beforeRemoval: () => Promise<void> = async () => undefined;
  async removePreview(roomId: string, externalId: string): Promise<void> {
    await this.beforeRemoval();
    if (roomId === 'thread-deleted') throw Object.assign(new Error('Unknown Channel'), { retryable: false });
    if (this.failRemovals > 0) {
      this.failRemovals -= 1;
      throw new Error('discord answered 503');
    }
    this.removed.push(externalId);
  }
}

describe.each(ENGINES)('previews a dead process left, on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;
  let previews: StreamPreviewsRepository;
  let transport: KeptPreviewsTransport;
  let sweeper: LeftPreviews;
  const clock = new ManualClock('2026-03-01T10:00:00Z');

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
    previews = new StreamPreviewsRepository(handle.db);
    transport = new KeptPreviewsTransport('discord');
    sweeper = new LeftPreviews({ previews, jobs, transports: new TransportRegistry([transport]), clock, logger });
    for (const id of ['worker-dead', 'worker-alive']) await jobs.registerInstance({ id, host: 'box', pid: id.length }, clock.now());
    await jobs.stopInstance('worker-dead', clock.now());
  });
  afterEach(async () => handle.close());

  const preview = (externalId: string, workerId: string, roomId = 'thread-1') =>
    previews.remember({ externalId, sessionId: 'ses_1', transport: 'discord', roomId, workerId, postedAt: clock.now() });
  const rows = async () => (await handle.db.selectFrom('stream_previews').select('external_id').orderBy('external_id').execute()).map((row) => row.external_id);

  it('removes the half-written answers of a dead process, keeps the one whose answer was stored, and leaves live ones alone', async () => {
    await preview('p-cut-off', 'worker-dead');
    await preview('p-answered', 'worker-dead');
    await preview('p-streaming', 'worker-alive');
    // The dead process stored the answer of `p-answered`: its delivery, still queued, turns the preview into it.
    await jobs.enqueue({ kind: 'deliver_message', payload: { previewExternalId: 'p-answered' }, runAt: clock.now(), sessionId: 'ses_1' }, clock.now());

    expect(await sweeper.sweep()).toEqual({ removed: 1, failed: 0 });
    expect(transport.removed).toEqual(['p-cut-off']);
    expect(await rows()).toEqual(['p-streaming']);
  });

  it('tries again when the room cannot be reached, gives up on a room gone for good, and forgets rows long finished', async () => {
    await preview('p-cut-off', 'worker-dead');
    await preview('p-in-deleted-thread', 'worker-dead', 'thread-deleted');
    transport.failRemovals = 1;
    expect(await sweeper.sweep()).toEqual({ removed: 0, failed: 1 });
    expect(await rows()).toEqual(['p-cut-off']);
    expect(await sweeper.sweep()).toEqual({ removed: 1, failed: 0 });

    await preview('p-old', 'worker-alive');
    await clock.advance(25 * 60 * 60_000);
    await sweeper.sweep();
    expect(await rows()).toEqual([]);
  });

  it('forgets each preview as soon as it left its room, not at the end of the sweep (CI: its row outlived it there)', async () => {
    for (const id of ['p-1', 'p-2', 'p-3']) await preview(id, 'worker-dead');
    const seen: string[][] = [];
    transport.beforeRemoval = async () => void seen.push(await rows());
    expect(await sweeper.sweep()).toEqual({ removed: 3, failed: 0 });
    // Before each removal, the rows of the previews already removed are gone.
    expect(seen.map((remaining) => remaining.length)).toEqual([3, 2, 1]);
  });
});
