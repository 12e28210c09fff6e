/** What the job worker's loop claims next, from the work queued since its last claim began (see `JobWorker.nudge`). */
import type { LaneSlots } from './worker-lanes.ts';

/** The nudges since the last claim began: which queues, and which lanes the next claim must look at. */
export class ClaimRequests {
  /** Work that is not a queue's was queued, or a job ended: the loop claims again before it sleeps. */
  private general = false;
  /**
   * Queues work was queued in. The loop claims again for those whose job that claim did not take: behind one it took,
   * the work is claimed when that job ends, and a claim now would come back empty (answers stored at once nudge while
   * the first of them is being claimed).
   */
  private readonly queues = new Set<string>();
  /**
   * Every lane (at start, after the timer, for work of an unknown lane), or only the lanes work was queued in (a room's
   * delivery claims the rooms lane alone: one statement, not one per lane).
   */
  private all = true;
  private readonly lanes = new Set<LaneSlots>();

  constructor(
    private readonly laneOfQueue: (queue: string) => LaneSlots | null,
    private readonly queueRunning: (queue: string) => boolean,
  ) {}

  /** Work to claim soon: in `lane`, in the lane of `queue`'s jobs when its name tells it, else in every lane. */
  add(queue?: string, lane?: LaneSlots): void {
    if (queue === undefined) this.general = true;
    else this.queues.add(queue);
    const known = lane ?? (queue === undefined ? null : this.laneOfQueue(queue));
    if (known) this.lanes.add(known);
    else this.all = true;
  }

  /** A lane whose claim took all it asked for: the loop claims it again at once. */
  again(lane: LaneSlots): void {
    this.lanes.add(lane);
  }

  /** A claim begins: the lanes it looks at (null: every lane); what asked for it is forgotten. */
  begin(): ReadonlySet<LaneSlots> | null {
    const lanes = this.all ? null : new Set(this.lanes);
    this.all = false;
    this.lanes.clear();
    this.general = false;
    this.queues.clear();
    return lanes;
  }

  /** Whether something queued since the last claim began may be claimable now. */
  pending(): boolean {
    return this.general || [...this.queues].some((queue) => !this.queueRunning(queue));
  }

  /** The loop woke from its sleep: when nothing asked for it, its timer did (the poll, a job falling due), and any lane may have work. */
  woke(): void {
    if (this.lanes.size === 0) this.all = true;
  }
}
