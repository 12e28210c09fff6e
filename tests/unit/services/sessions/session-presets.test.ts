import { describe, expect, it } from 'vitest';
import { BUILT_IN_PRESETS } from '../../../../src/config/presets.ts';
import { buildConfig } from '../../../../src/config/load-config.ts';
import type { PlannerState, SessionPlan } from '../../../../src/core/domain.ts';
import { PresetService, splitPresetOption, withPresetNote } from '../../../../src/services/sessions/session-presets.ts';
import { compileConversation } from '../../../../src/services/sessions/starting-conversation.ts';
import { scriptedPlan } from '../../../support/scripted-plans.ts';

const roster = buildConfig({}).models.roster;
const presets = new PresetService(
  [...BUILT_IN_PRESETS, { ...BUILT_IN_PRESETS[0]!, name: 'duo', title: 'Duo', participants: ['claude', 'GROK'], roles: [] }],
  () => roster,
);
const state = (extra: Partial<PlannerState> = {}): PlannerState => ({ questions: [], answers: [], revisionRequests: [], questionRounds: 0, ...extra });
const plan = (preset: string | null): SessionPlan => ({ ...scriptedPlan({ maxMessages: 99 }), preset });

describe('presets', () => {
  it("a person's choice wins over the Planner's pick; an unknown pick is a free-form plan", () => {
    expect(presets.shape({ plannerState: state(), plan: null }, plan('research-question')).parameters.maxMessages).toBe(40);
    const chosen = presets.shape({ plannerState: state({ preset: { name: 'retrospective', by: 'Ada' } }), plan: null }, plan('research-question'));
    expect(chosen.preset).toBe('retrospective');
    expect(chosen.expectedFlow).toEqual(BUILT_IN_PRESETS[3]!.phases);
    expect(presets.shape({ plannerState: state(), plan: null }, plan('made-up'))).toMatchObject({ preset: null, parameters: { maxMessages: 99 } });
  });

  it("brings the preset's limits to the first plan that follows it; a revision under it keeps the Planner's", () => {
    const first = presets.shape({ plannerState: state(), plan: null }, plan('research-question'));
    expect(first.parameters.maxMessages).toBe(40);
    // The Planner revised from the plan as shown ("make it shorter"): its 99 stands.
    expect(presets.shape({ plannerState: state(), plan: first }, plan('research-question')).parameters.maxMessages).toBe(99);
    // A preset chosen since brings its own.
    const chosen = state({ preset: { name: 'retrospective', by: 'Ada' } });
    expect(presets.shape({ plannerState: chosen, plan: first }, plan('research-question')).parameters.maxMessages).toBe(30);
  });

  it('seats the participants a preset names (by id or name) and leaves the others out', () => {
    const duo = presets.find('Duo');
    expect(presets.participants(duo).map((participant) => participant.name)).toEqual(['Claude', 'Grok']);
    expect(presets.leftOut(duo)).toEqual(['chatgpt']);
    expect(presets.leftOut(presets.find('product-ideas'))).toEqual([]);
    expect(presets.roles({ plannerState: state({ preset: { name: 'duo', by: 'Ada' } }), plan: null })).toEqual([]);
  });

  it('reads `preset:<name>` out of a topic', () => {
    expect(splitPresetOption('Our sprint slipped preset:retrospective')).toEqual({ topic: 'Our sprint slipped', preset: 'retrospective' });
    expect(splitPresetOption('preset: duo  what now?')).toEqual({ topic: 'what now?', preset: 'duo' });
    expect(splitPresetOption('no preset here')).toEqual({ topic: 'no preset here', preset: null });
  });

  it('puts the preset line under the record title once, however often the record is rewritten', () => {
    const note = '_Session preset: **Duo** (`duo`, chosen by Ada)._';
    const once = withPresetNote('# Record\n\nBody.', note);
    expect(once).toBe(`# Record\n\n${note}\n\nBody.`);
    expect(withPresetNote(once, note)).toBe(once);
  });
});

describe('a starting conversation', () => {
  const allow = { screen: async (text: string) => !text.includes('sk-') };

  it('keeps the newest lines within the bounds, oldest first, without ids, commands or refused text', async () => {
    const lines = [
      { speakerName: 'Ada', text: 'first, too old to fit' },
      { speakerName: 'Bob', text: '<@123456789012345678> try <#222222222222222222> now' },
      { speakerName: 'Ada', text: '!status' },
      { speakerName: 'Bob', text: 'my key sk-secret' },
      { speakerName: 'Ada', text: 'last word' },
    ];
    const conversation = await compileConversation(lines, allow, { maxMessages: 4, maxChars: 200 });
    expect(conversation?.text).toBe('[Bob]: try  now\n[Bob]: (a message left out: the screen refused it)\n[Ada]: last word');
    expect(conversation?.speakers).toEqual(['Bob', 'Ada']);
    const tight = await compileConversation(lines, allow, { maxMessages: 50, maxChars: 20 });
    expect(tight?.text).toBe('[Ada]: last word');
    expect(await compileConversation([], allow, { maxMessages: 50, maxChars: 200 })).toBeNull();
  });
});
