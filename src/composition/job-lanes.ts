/** The job worker's lanes (see worker-lanes.ts): which kinds of job share slots, and how many. */
import { DELIVER_MESSAGE_JOB, ROOM_QUEUE_PREFIX } from '../services/delivery/delivery-service.ts';
import { REMOVE_LEFT_PREVIEWS_JOB } from '../services/delivery/left-previews.ts';
import { DOCUMENTATION_JOB_KINDS } from '../services/documentation/documentation-types.ts';
import { IDEA_LEDGER_JOB } from '../services/ideas/idea-ledger-service.ts';
import type { JobLane } from '../services/jobs/worker-lanes.ts';

/**
 * Rooms: what people see posted. Each delivery takes milliseconds and waits for no model; rooms are independent (one
 * room's deliveries run in order, one at a time), so many run at once.
 * Records: the Scribe, the TLDR, the idea ledger and their Notion writes, each a model call or a rate-limited Notion
 * write that holds its slot for seconds to a minute. Nobody waits on one, and a session has one pending at most (its
 * next pass catches up). Waiting costs no CPU: 16, so that a busy deployment's records keep up with real models, whose
 * passes take 10-40 s (8 kept up with 200 sessions only because the bench's models answer in 2 s).
 * Everything else (the Planner's steps, wrap-ups, timers, housekeeping) keeps the worker's default lane of 8.
 */
export const JOB_LANES: readonly JobLane[] = [
  { name: 'rooms', kinds: [DELIVER_MESSAGE_JOB, REMOVE_LEFT_PREVIEWS_JOB], concurrency: 32, queuePrefix: ROOM_QUEUE_PREFIX },
  {
    name: 'records',
    kinds: [
      DOCUMENTATION_JOB_KINDS.scribe,
      DOCUMENTATION_JOB_KINDS.tldr,
      DOCUMENTATION_JOB_KINDS.notionSync,
      DOCUMENTATION_JOB_KINDS.notionRow,
      IDEA_LEDGER_JOB,
    ],
    concurrency: 16,
  },
];
