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
  /** Its jobs' queues begin with this (`room:`): work queued in such a queue is claimed in this lane alone. */
  queuePrefix?: string;
}

/** A lane and how many of its jobs run in this worker now. */
export interface LaneSlots {
  readonly name: string;
  readonly concurrency: number;
  running: number;
  /** Its last claim took all it could: more may be due, so a job's end here claims again. */
  full: boolean;
}

/** A lane's use, as /metrics shows it: its jobs running now and its slots. */
export interface LaneUse {
  lane: string;
  busy: number;
  slots: number;
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
  private readonly byQueuePrefix: [string, LaneSlots][] = [];

  constructor(lanes: readonly JobLane[], defaultConcurrency: number) {
    this.fallback = { name: 'default', concurrency: defaultConcurrency, running: 0, full: false };
    this.lanes = lanes.map((lane) => ({ name: lane.name, concurrency: lane.concurrency, running: 0, full: false }));
    lanes.forEach((lane, index) => {
      const slots = this.lanes[index] as LaneSlots;
      for (const kind of lane.kinds) this.byKind.set(kind, slots);
      if (lane.queuePrefix) this.byQueuePrefix.push([lane.queuePrefix, slots]);
    });
    this.lanes.push(this.fallback);
  }

  /** The lane a kind of job runs in. */
  laneOf(kind: string): LaneSlots {
    return this.byKind.get(kind) ?? this.fallback;
  }

  /** The lane whose jobs a queue holds, when its name tells it; null when it could be any lane's. */
  laneOfQueue(queue: string): LaneSlots | null {
    return this.byQueuePrefix.find(([prefix]) => queue.startsWith(prefix))?.[1] ?? null;
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

  /** Each lane's jobs running now and its slots (for /metrics). */
  use(): LaneUse[] {
    return this.lanes.map((lane) => ({ lane: lane.name, busy: lane.running, slots: lane.concurrency }));
  }
}
