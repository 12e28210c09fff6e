import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { PersonRevisionsRepository } from '../../../src/repositories/person-revisions-repository.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness, inputText, scriptedModels } from './documentation-harness.ts';

const ADA: Speaker = { kind: 'human', name: 'Ada', id: 'u-ada' };
const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };

describe("people's corrections in the record", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openAppTestDatabase();
  });
  afterAll(async () => handle.close());

  it('are told to the next pass that writes with the model, even when the pass after the edit fell back to statistics', async () => {
    // The Scribe's second call fails: that pass writes a statistics record, which applies no correction.
    const harness = createDocumentationHarness(handle, { notion: null, models: scriptedModels({ scribeFailsAt: [1] }) });
    await harness.newSession('ses_corrections', 'Corrections');
    const pass = async () => {
      await harness.service.requestRecord('ses_corrections', { urgent: true });
      await harness.runDue();
    };
    const budget = await harness.say('ses_corrections', ADA, 'Budget: two engineers for a month.');
    await pass();
    await new PersonRevisionsRepository(handle.db).revise(budget, 'Budget: three engineers for a month.', harness.clock.now());
    await harness.clock.advance(1000);
    await harness.say('ses_corrections', CLAUDE, 'Then start with the riskiest path.');
    await pass();
    expect(await harness.service.latestRecord('ses_corrections')).toContain('## Not yet summarised');
    await harness.say('ses_corrections', CLAUDE, 'And review it weekly.');
    await pass();
    const calls = harness.models.scribe.calls;
    expect(calls).toHaveLength(3);
    expect(inputText(calls[2]!)).toContain('was edited by its author; it now says: Budget: three engineers for a month.');
  });
});
