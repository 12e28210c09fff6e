import { describe, expect, it } from 'vitest';
import { WorkerLanes } from '../../../../src/services/jobs/worker-lanes.ts';

describe('worker lanes', () => {
  const lanes = () => new WorkerLanes([{ name: 'rooms', kinds: ['deliver', 'remove_previews'], concurrency: 4 }], 2);

  it('claims each lane for its own kinds among those handled, every other kind in the default lane', () => {
    const openings = lanes().openings(['deliver', 'scribe', 'planner_step']);
    expect(openings.map(({ lane, free, kinds }) => ({ lane: lane.name, free, kinds }))).toEqual([
      { lane: 'rooms', free: 4, kinds: ['deliver'] },
      { lane: 'default', free: 2, kinds: ['scribe', 'planner_step'] },
    ]);
  });

  it('offers a lane no free slot while its jobs fill it, whatever the other lanes run', () => {
    const worker = lanes();
    worker.laneOf('scribe').running = 2;
    worker.laneOf('deliver').running = 1;
    expect(worker.openings(['deliver', 'scribe']).map(({ lane, free }) => [lane.name, free])).toEqual([
      ['rooms', 3],
      ['default', 0],
    ]);
    expect(worker.use().reduce((sum, lane) => sum + lane.busy, 0)).toBe(3);
  });

  it('leaves out a lane none of whose kinds has a handler (no claim is sent for it)', () => {
    expect(
      lanes()
        .openings(['scribe'])
        .map(({ lane }) => lane.name),
    ).toEqual(['default']);
  });
});
