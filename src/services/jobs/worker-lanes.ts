/**
 * The job worker's slots, split into lanes by job kind: a lane's jobs never wait for another lane's. Room deliveries
 * take a few milliseconds each and people wait for them; a Scribe pass holds its slot for a model call of seconds to
 * a minute. In one shared pool, eight passes at once stopped every room's answers from being posted until one ended.
 */

/** A share of the worker's slots for some kinds of job. */
export interface JobLane {
  /** For logs and metrics: what the lane is for. */
  name: string;
  /** The kinds it runs. */
  kinds: readonly string[];
  /** How many of its jobs run at once. */
  concurrency: number;
}

/** A lane and how many of its jobs run in this worker now. */
export interface LaneSlots {
  readonly name: string;
  readonly concurrency: number;
  running: number;
}

/** What a claim of one lane may take now. */
export interface LaneOpening {
  lane: LaneSlots;
  /** Free slots: 0 when the lane is full. */
  free: number;
  /** The kinds to claim: the lane's, among those the worker has handlers for. */
  kinds: string[];
}

/** The lanes of one worker: those configured, and a default lane for every kind none of them names. */
export class WorkerLanes {
  private readonly byKind = new Map<string, LaneSlots>();
  private readonly lanes: LaneSlots[];
  private readonly fallback: LaneSlots;

  constructor(lanes: readonly JobLane[], defaultConcurrency: number) {
    this.fallback = { name: 'default', concurrency: defaultConcurrency, running: 0 };
    this.lanes = lanes.map((lane) => ({ name: lane.name, concurrency: lane.concurrency, running: 0 }));
    lanes.forEach((lane, index) => {
      for (const kind of lane.kinds) this.byKind.set(kind, this.lanes[index] as LaneSlots);
    });
    this.lanes.push(this.fallback);
  }

  /** The lane a kind of job runs in. */
  laneOf(kind: string): LaneSlots {
    return this.byKind.get(kind) ?? this.fallback;
  }

  /** Each lane with a kind to run among `handled`: its free slots and the kinds to claim. */
  openings(handled: Iterable<string>): LaneOpening[] {
    const kindsByLane = new Map<LaneSlots, string[]>();
    for (const kind of handled) {
      const lane = this.laneOf(kind);
      kindsByLane.set(lane, [...(kindsByLane.get(lane) ?? []), kind]);
    }
    return [...kindsByLane].map(([lane, kinds]) => ({ lane, free: Math.max(0, lane.concurrency - lane.running), kinds }));
  }

  /** Jobs running in this worker, in every lane. */
  running(): number {
    return this.lanes.reduce((sum, lane) => sum + lane.running, 0);
  }
}
