import { afterEach, describe, expect, it } from 'vitest';
import { nextStepsIn, stepKey } from '../../../../src/core/next-steps.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { Author, Session, SessionStatus } from '../../../../src/core/domain.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import type { CommandInvocation, DocumentationPort } from '../../../../src/core/ports.ts';
import type { ModerationPort } from '../../../../src/core/service-ports.ts';
import {
  CommandService,
  type AdminSettingsPort,
  type FreshSummarySource,
  type PeoplesRecordWriter,
} from '../../../../src/services/commands/command-service.ts';
import type { ContextManager } from '../../../../src/services/context/context-manager.ts';
import type { DeliveryService } from '../../../../src/services/delivery/delivery-service.ts';
import { LimitsService } from '../../../../src/services/limits/limits-service.ts';
import type { PlannerFlow } from '../../../../src/services/sessions/planner-flow.ts';
import { RosterService } from '../../../../src/services/sessions/roster-service.ts';
import type { SessionLifecycle } from '../../../../src/services/sessions/session-lifecycle.ts';
import { PresetService } from '../../../../src/services/sessions/session-presets.ts';
import type { SessionStarter } from '../../../../src/services/sessions/session-starter.ts';
import { limitsConfig, openRepositories, participant, quietLogger, storeSession, stub, type TestRepositories } from '../../../support/service-doubles.ts';

const alice: Author = { id: 'u-alice', name: 'Alice', isAdmin: false };
const ada: Author = { id: 'u-ada', name: 'Ada', isAdmin: true };

const opened: TestRepositories[] = [];

afterEach(async () => {
  for (const repositories of opened.splice(0)) await repositories.handle.close();
});

/** A command service whose collaborators record what reached them; only the ports a test names may be called. */
async function commandFixture(
  options: {
    status?: SessionStatus;
    perMinute?: number;
    record?: string;
    afterRead?: (records: string[]) => void;
    scribePass?: (records: string[]) => void;
  } = {},
) {
  const clock = new ManualClock();
  /** The record's versions, newest last (what `!steps` reads and `!done` writes). */
  const records: string[] = options.record ? [options.record] : [];
  const repositories = await openRepositories();
  opened.push(repositories);
  const session = await storeSession(repositories.sessions, clock, { status: options.status ?? 'active' });
  const calls: string[] = [];
  const roster = [participant('Claude'), participant('Grok')];
  const lifecycle = stub<SessionLifecycle>('lifecycle', {
    pause: async (sessionId) => {
      calls.push(`pause ${sessionId}`);
      return session;
    },
    end: async (sessionId, status, reason) => {
      calls.push(`end ${sessionId} ${status} (${reason})`);
    },
  });
  const settings: AdminSettingsPort = {
    apply: async (setting, value, by) => {
      calls.push(`config ${setting}=${value} by ${by.name}`);
      return `${setting} is now ${value}.`;
    },
    describe: async () => 'MAX_MESSAGES = 100',
  };
  const starter: Pick<SessionStarter, 'explore' | 'startFromConversation'> = {
    explore: async (parent: Session, topic: string, invocation: CommandInvocation) => {
      calls.push(`explore ${parent.id} "${topic}" by ${invocation.author.name}`);
      return `Exploring ${topic} in a new thread.`;
    },
    startFromConversation: async (topic: string, invocation: CommandInvocation) => {
      calls.push(`brainstorm "${topic}" in ${invocation.channelId}`);
      return `Started a brainstorm on ${topic}.`;
    },
  };
  const service = new CommandService({
    sessions: repositories.sessions,
    lifecycle,
    planner: stub<PlannerFlow>('planner'),
    delivery: stub<DeliveryService>('delivery'),
    limits: new LimitsService(repositories.messages, () => limitsConfig(), clock),
    context: stub<ContextManager>('context'),
    // No summary can be made (a pass failed, or another process is writing it).
    documentation: stub<DocumentationPort & FreshSummarySource & PeoplesRecordWriter>('documentation', {
      freshSummary: async () => null,
      requestRecord: async (sessionId, { urgent }) => {
        calls.push(`record ${sessionId}${urgent ? ' now' : ''}`);
        options.scribePass?.(records);
      },
      refreshRecord: async () => {
        const read = records.at(-1) ?? null;
        options.afterRead?.(records);
        return read;
      },
      // Storing takes a moment, as a database write does: a second edit that read the record meanwhile would undo this one.
      editPeoplesRecord: async (_sessionId, edit) => {
        const edited = records.length > 0 ? edit(records.at(-1)!) : null;
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (edited !== null) records.push(edited);
        return edited !== null;
      },
    }),
    moderation: stub<ModerationPort>('moderation', {
      refocus: async (focused, focus) => {
        calls.push(`focus ${focused.id}${focus ? ` on "${focus.text}" by ${focus.by}` : ''}`);
        return 'refocused';
      },
    }),
    roster: new RosterService(roster, { disabledParticipants: () => [], setParticipantEnabled: async () => undefined }, () => true),
    settings,
    starter,
    presets: new PresetService([], () => roster),
    clock,
    logger: quietLogger(),
    commandsPerMinute: () => options.perMinute ?? 30,
    // Refuses what a person says that holds the word "password" (the real screen refuses secrets).
    screen: async (text) =>
      /password/i.test(text)
        ? { verdict: 'blocked', reason: 'secret', explanation: 'That looks like a secret.' }
        : { verdict: 'ok', reason: null, explanation: '' },
  });
  /** `!name args` by `author`, in the session's room (or, with `room: null`, in the brainstorm channel). */
  const run = (name: string, args = '', author: Author = alice, room: string | null = session.roomId) =>
    service.run({ transport: 'memory', roomId: room, channelId: room ?? 'channel-1', author, name, args });
  return { clock, session, calls, run, records };
}

describe('CommandService refusals', () => {
  it('refuses an unknown command privately', async () => {
    const { run, calls } = await commandFixture();
    expect(await run('frobnicate')).toEqual({ content: 'Unknown command `!frobnicate`. Type `!help` for the list.', private: true });
    expect(calls).toEqual([]);
  });

  it('shows a huge or odd unknown name short, in one message, without breaking its code span', async () => {
    const { run } = await commandFixture();
    expect((await run('x'.repeat(5000))).content).toBe(`Unknown command \`!${'x'.repeat(40)}…\`. Type \`!help\` for the list.`);
    expect((await run('a`b')).content).toBe('Unknown command `!ab`. Type `!help` for the list.');
  });

  it('names the command a person likely meant, and runs nothing', async () => {
    const { run, calls } = await commandFixture();
    expect(await run('end')).toEqual({
      content: 'Unknown command `!end`. Did you mean `!stop` (stop the discussion now (keeps what was said) and wrap up)? Type `!help` for the list.',
      private: true,
    });
    expect((await run('aprove')).content).toContain('Did you mean `!approve`');
    expect((await run('STAUTS')).content).toContain('Did you mean `!status`');
    expect((await run('tldr')).content).toContain('Did you mean `!summary`');
    expect((await run('dome')).content).toContain('Did you mean `!done`');
    expect((await run('stat')).content).toContain('Did you mean `!status`');
    expect((await run('kick', 'Grok')).content).toContain('Did you mean `!disable`');
    expect((await run('unmute', 'Grok')).content).toContain('Did you mean `!enable`');
    // Nothing close enough: no guess.
    expect((await run('xyz')).content).not.toContain('Did you mean');
    expect((await run('brainwave')).content).not.toContain('Did you mean');
    // A word that names a property of every JavaScript object is no synonym.
    expect((await run('constructor')).content).toBe('Unknown command `!constructor`. Type `!help` for the list.');
    // Words after an unknown command were meant for the room: the person is told they were not posted.
    expect((await run('wow', "that's the one we need")).content).toBe(
      'Unknown command `!wow`. Type `!help` for the list. Your message was not posted to the discussion: send it without the leading `!` to say it there.',
    );
    expect(calls).toEqual([]);
  });

  it('!preset says what the room follows: nothing yet outside a session, the free-form plan of a session under way', async () => {
    const { run } = await commandFixture();
    expect((await run('preset')).content).toMatch(/This session follows no preset: its plan is free-form\.$/);
    expect((await run('preset', '', alice, null)).content).toMatch(/Start a session with one: `!brainstorm <topic> preset:<name>`\.$/);
    const planning = await commandFixture({ status: 'awaiting_approval' });
    expect((await planning.run('preset')).content).toMatch(/No preset is chosen yet: the Planner picks one from the topic\.$/);
  });

  it("refuses a command that does not apply in the session's state, and one used outside a session", async () => {
    const { run, calls, session } = await commandFixture({ status: 'paused' });
    expect(await run('pause')).toEqual({ content: '`!pause` does not apply now: the session is paused. `!continue` resumes it.', private: true });
    const ended = await commandFixture({ status: 'stopped' });
    expect((await ended.run('focus')).content).toBe(
      '`!focus` does not apply now: the session is stopped. It has ended; `!summary`, `!record` and `!steps` still work.',
    );
    expect(ended.calls).toEqual([]);
    expect(await run('pause', '', alice, null)).toMatchObject({ content: expect.stringContaining('works inside a session thread'), private: true });
    expect(calls).toEqual([]);
    // A state it applies in reaches the lifecycle.
    expect(await run('stop')).toEqual({ content: 'Stopped. Wrapping up…', private: false });
    expect(calls).toEqual([`end ${session.id} stopped (stopped by Alice)`]);
  });

  it('keeps admin commands to admins', async () => {
    const { run, calls } = await commandFixture();
    expect(await run('config', 'maxMessages 10')).toEqual({
      content: '`!config` is for admins (Manage Server permission or the admin role).',
      private: true,
    });
    expect(calls).toEqual([]);
    expect(await run('config', 'maxMessages 10', ada)).toEqual({ content: 'maxMessages is now 10.', private: false });
    expect(calls).toEqual(['config maxMessages=10 by Ada']);
  });

  it('rate-limits each person per minute of the clock, never a stop or a pause', async () => {
    const { run, calls, clock, session } = await commandFixture({ perMinute: 2 });
    expect((await run('help')).private).toBe(false);
    await clock.advance(10_000);
    expect((await run('help')).private).toBe(false);
    expect(await run('help')).toEqual({ content: 'Easy there — too many commands. Try again in 50 s.', private: true });
    expect(await run('status')).toMatchObject({ content: expect.stringContaining('too many commands'), private: true });
    // Another person is not held back, and a pause or a stop always goes through.
    expect((await run('help', '', ada)).private).toBe(false);
    expect((await run('pause')).content).toBe('Paused: answers already being written will still arrive, and no new ones start. Type `!continue` to resume.');
    expect((await run('stop')).content).toBe('Stopped. Wrapping up…');
    expect(calls).toEqual([`pause ${session.id}`, `end ${session.id} stopped (stopped by Alice)`]);

    await clock.advance(50_000);
    expect(await run('status')).toMatchObject({ content: expect.stringContaining('Messages'), private: false });
  });
});

describe('CommandService starting sessions', () => {
  it('hands `!explore <topic>` in a session to the starter', async () => {
    const { run, calls, session } = await commandFixture();
    expect(await run('explore', '  kill switches ')).toEqual({ content: 'Exploring kill switches in a new thread.', private: false });
    expect(calls).toEqual([`explore ${session.id} "kill switches" by Alice`]);
  });

  it('hands `!brainstorm <topic>` outside a session to the starter', async () => {
    const { run, calls } = await commandFixture();
    expect(await run('brainstorm', 'flags for mobile', alice, null)).toEqual({ content: 'Started a brainstorm on flags for mobile.', private: false });
    expect(calls).toEqual(['brainstorm "flags for mobile" in channel-1']);
  });

  it('refuses `!explore` and `!brainstorm` without a topic, starting nothing', async () => {
    const { run, calls } = await commandFixture();
    for (const name of ['explore', 'brainstorm']) {
      const error = await run(name, '  ').then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(BrainstormError.isInstance(error) && error.code).toBe('bad_input');
    }
    expect(calls).toEqual([]);
  });
});

describe('CommandService !focus', () => {
  const refused = async (attempt: Promise<unknown>) =>
    attempt.then(
      () => null,
      (reason: unknown) => (BrainstormError.isInstance(reason) ? reason.code : reason),
    );

  it('hands what a person names to the Moderator, however they phrase it, and nothing when they name nothing', async () => {
    const { run, calls, session } = await commandFixture();
    await run('focus', '  disclosure   timelines ');
    await run('focus', 'on: a private inbox');
    await run('focus', 'on the embargo');
    await run('focus', 'online reports');
    await run('focus');
    expect(calls).toEqual([
      `focus ${session.id} on "disclosure timelines" by Alice`,
      `focus ${session.id} on "a private inbox" by Alice`,
      `focus ${session.id} on "the embargo" by Alice`,
      `focus ${session.id} on "online reports" by Alice`,
      `focus ${session.id}`,
    ]);
  });

  it('refuses a focus longer than a subject, or one the screen blocks, and asks the Moderator nothing', async () => {
    const { run, calls } = await commandFixture();
    expect(await refused(run('focus', 'x'.repeat(301)))).toBe('bad_input');
    expect(await refused(run('focus', 'the admin password hunter2'))).toBe('guardrail_tripped');
    // The Moderator repeats it in its voice: no links or mentions under its name.
    for (const phishing of ['[the docs](https://evil.example)', 'https://evil.example', '@everyone deadlines', '<@123> please'])
      expect(await refused(run('focus', phishing))).toBe('bad_input');
    expect(calls).toEqual([]);
  });
});

describe('CommandService !help', () => {
  it("lists the commands in the catalog's order, each with its usage", async () => {
    const { run } = await commandFixture();
    const lines = (await run('help')).content.split('\n').slice(1);
    const names = lines.map((line) => /^`[!/](?:brainstorm start|\w+)/.exec(line)?.[0].replace(/^`[!/]/, ''));
    expect(names.slice(0, 7)).toEqual(['brainstorm', 'preset', 'approve', 'stop', 'pause', 'continue', 'status']);
    expect(names.at(-1)).toBe('help');
    expect(lines).toContain('`!focus [what]` — ask the Moderator to refocus the discussion (on what you name, if you do)');
  });

  it('explains one command in full when named, and names the likely one for a name it lacks', async () => {
    const { run, calls } = await commandFixture();
    expect((await run('help', 'stop')).content).toBe(
      [
        '`!stop` — stop the discussion now (keeps what was said) and wrap up',
        'Works while the session is planning, awaiting approval, active or paused.',
        'Never rate-limited.',
      ].join('\n'),
    );
    expect((await run('help', '!approve')).content).toContain('Also: `!start`.');
    expect((await run('help', 'config')).content).toContain('For admins');
    expect((await run('help', 'help')).content).toContain('Works anywhere');
    expect((await run('help', 'end')).content).toContain('Did you mean `!stop`');
    expect(calls).toEqual([]);
  });
});

describe('CommandService !summary without a summary', () => {
  it('says why: before approval there is no discussion; after, the first summary is on its way', async () => {
    expect((await (await commandFixture({ status: 'planning' })).run('summary')).content).toBe(
      'No summary yet — the discussion starts once the plan is approved.',
    );
    expect((await (await commandFixture({ status: 'active' })).run('summary')).content).toBe(
      'No summary yet — the first one is still being written; try `!summary` again in a minute.',
    );
  });
});

describe('CommandService next steps', () => {
  const RECORD = '# Record\n## Next steps\n- [ ] Pilot the async doc — Alice (#7)\n- [x] Book the retro (#9)\n## Sources\n- [ ] not a step';

  it('!steps lists them numbered, open and done; !done and !reopen change one box, as a person, and say who', async () => {
    const { run, records, calls, session } = await commandFixture({ record: RECORD });
    expect((await run('steps')).content).toBe('**Next steps** (1 open, 1 done)\n☐ 1. Pilot the async doc — Alice (#7)\n☑ 2. Book the retro (#9)');
    // The record is brought up to the last message first, as for `!record`.
    expect(calls).toEqual([`record ${session.id} now`]);
    expect((await run('done', '1')).content).toBe('☑ 1. Pilot the async doc — Alice (#7) — done, by Alice.');
    expect(records.at(-1)).toBe(RECORD.replace('- [ ] Pilot', '- [x] Pilot'));
    expect((await run('reopen', ' 2 ', ada)).content).toBe('☐ 2. Book the retro (#9) — open again, by Ada.');
    expect(records.at(-1)).toBe(RECORD.replace('- [ ] Pilot', '- [x] Pilot').replace('- [x] Book', '- [ ] Book'));
    expect(records).toHaveLength(3);
  });

  it('takes words of a step for its number; refuses none, an unknown number or words that name none or several, changing nothing', async () => {
    const { run, records } = await commandFixture({ record: RECORD.replace('## Sources', '- [ ] Pilot the retro format (#11)\n## Sources') });
    const refusal = (attempt: Promise<unknown>) =>
      attempt.then(
        () => null,
        (reason: unknown) => (BrainstormError.isInstance(reason) ? `${reason.code}: ${reason.message}` : reason),
      );
    expect(await refusal(run('done', '  '))).toBe("bad_input: Usage: `!done <number or words>` — the step's number in `!steps`, or words of it.");
    expect(await refusal(run('reopen', ''))).toBe("bad_input: Usage: `!reopen <number or words>` — the step's number in `!steps`, or words of it.");
    expect(await refusal(run('done', '4'))).toBe('bad_input: There is no step 4: the record has 3 (see `!steps`).');
    expect(await refusal(run('done', '0'))).toBe('bad_input: There is no step 0: the record has 3 (see `!steps`).');
    expect(await refusal(run('done', 'budget'))).toBe('bad_input: No step says “budget” (see `!steps`).');
    expect(await refusal(run('done', 'pilot'))).toBe('bad_input: Steps 1, 3 all say “pilot”: name one by its number.');
    expect((await run('done', 'the retro (#9)')).content).toBe('Already done: ☑ 2. Book the retro (#9)');
    expect(records).toHaveLength(1);
    expect((await run('done', 'PILOT async')).content).toBe('☑ 1. Pilot the async doc — Alice (#7) — done, by Alice.');
    expect(records).toHaveLength(2);
  });

  it('!steps offers a button per open step, naming it by number and key: a click after the list changed ticks the step the person saw, or none', async () => {
    const { run, records } = await commandFixture({ record: RECORD });
    const { buttons } = await run('steps');
    expect(buttons).toEqual([{ label: 'Done 1', command: 'done', args: `1@${stepKey('Pilot the async doc — Alice (#7)')}`, then: 'steps' }]);
    // The Scribe puts a new step first: the button's step is now number 2, and that is the one ticked.
    records.push(RECORD.replace('## Next steps\n', '## Next steps\n- [ ] Write the brief (#12)\n'));
    expect((await run('done', buttons![0]!.args)).content).toBe('☑ 2. Pilot the async doc — Alice (#7) — done, by Alice.');
    expect(records.at(-1)).toContain('- [ ] Write the brief (#12)\n- [x] Pilot the async doc');
    // A step the Scribe dropped is ticked nowhere.
    records.push('# Record\n## Next steps\n- [ ] Write the brief (#12)');
    await expect(run('done', buttons![0]!.args)).rejects.toThrow('That step is no longer in the record');
    expect(records.at(-1)).toBe('# Record\n## Next steps\n- [ ] Write the brief (#12)');
  });

  it('a tick lands on the record the Scribe wrote since the command read it: the new words stay, a moved step is found', async () => {
    const rewritten = RECORD.replace('# Record\n', '# Record\n- #12 [Ada (person)]: a new point\n').replace(
      '## Next steps\n',
      '## Next steps\n- [ ] Write the brief (#12)\n',
    );
    let passes = 0;
    const { run, records } = await commandFixture({ record: RECORD, afterRead: (versions) => void (passes++ === 0 && versions.push(rewritten)) });
    expect((await run('done', '1')).content).toBe('☑ 1. Pilot the async doc — Alice (#7) — done, by Alice.');
    expect(records.at(-1)).toBe(rewritten.replace('- [ ] Pilot', '- [x] Pilot'));
  });

  it('two steps ticked at the same moment (two people pressing their buttons) both stay ticked', async () => {
    const { run, records } = await commandFixture({ record: RECORD.replace('## Sources', '- [ ] Pilot the retro format (#11)\n## Sources') });
    await Promise.all([run('done', '1'), run('done', '3', ada), run('reopen', '2')]);
    expect(nextStepsIn(records.at(-1)!).map((step) => step.done)).toEqual([true, false, true]);
  });

  it('before the plan is approved, or without steps in the record, says there are none', async () => {
    expect((await (await commandFixture({ status: 'awaiting_approval', record: RECORD })).run('done', '1')).content).toMatch(/No next steps yet/);
    const { run, records } = await commandFixture({ record: '# Record\n## Discussion flow\n- nothing agreed' });
    expect((await run('steps')).content).toMatch(/No next steps in the record yet/);
    expect((await run('done', '1')).content).toMatch(/No next steps in the record yet/);
    expect(records).toHaveLength(1);
  });

  it('!done on a step agreed since the last Scribe pass brings the record up to date first, and ticks it', async () => {
    const agreed = '# Record\n## Next steps\n- [ ] Trial Opsgenie for two weeks (#12)\n';
    const { run, records, calls, session } = await commandFixture({
      record: '# Record\n## Discussion flow\n- nothing agreed yet',
      scribePass: (versions) => void (versions.at(-1)!.includes('Opsgenie') || versions.push(agreed)),
    });
    expect((await run('done', 'opsgenie')).content).toBe('☑ 1. Trial Opsgenie for two weeks (#12) — done, by Alice.');
    expect(calls).toEqual([`record ${session.id} now`]);
    expect(records.at(-1)).toBe(agreed.replace('- [ ]', '- [x]'));
    // A step the record has: no pass is asked for.
    expect((await run('reopen', '1')).content).toBe('☐ 1. Trial Opsgenie for two weeks (#12) — open again, by Alice.');
    expect(calls).toEqual([`record ${session.id} now`]);
  });
});
