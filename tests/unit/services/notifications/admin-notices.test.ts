import { describe, expect, it } from 'vitest';
import type { ClaimedJob } from '../../../../src/repositories/jobs-repository.ts';
import { terminalFailureNotice } from '../../../../src/services/notifications/admin-notifier.ts';

function job(kind: string): ClaimedJob {
  return {
    id: 7,
    kind,
    payload: {},
    sessionId: 'ses_1',
    retryCount: 4,
    maxRetries: 5,
    retryUntil: null,
    runId: 1,
    queue: null,
    hasSuccessor: false,
    firstRun: false,
  };
}

describe('admin notices of jobs that failed for good', () => {
  it('name the job and say what its failure means, differently for each kind', () => {
    const kinds = [
      'deliver_message',
      'notion_sync',
      'notion_session_row',
      'scribe',
      'tldr',
      'planner_step',
      'planner_resume',
      'planner_timeout',
      'session_timeout',
      'wrap_up',
    ];
    const meanings = kinds.map((kind) => {
      const notice = terminalFailureNotice(job(kind), 'boom');
      expect(notice.title).toContain(kind);
      expect(notice.message).toContain(`Job 7 (${kind}) (session ses_1) failed after 5 attempts: boom.`);
      return notice.message.split('boom.')[1];
    });
    expect(new Set(meanings).size).toBe(kinds.length);
    expect(terminalFailureNotice(job('deliver_message'), 'boom').message).not.toMatch(/document/);
    expect(terminalFailureNotice(job('some_new_kind'), 'boom').message).toMatch(/web console/);
  });
});
