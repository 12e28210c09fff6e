import { describe, expect, it } from 'vitest';
import { parseCritiqueText } from '../../../../src/agents/critique/critique-text.ts';
import { critiqueDirective, plannerComments, withCritiqueDirective } from '../../../../src/services/critique/plan-directive.ts';
import { scriptedPlan } from '../../../support/scripted-plans.ts';

describe('parseCritiqueText (a reviewer that ignores the schema)', () => {
  it('reads fenced JSON with the fields as the schema names them', () => {
    const text = '```json\n{"ranking":["B","A"],"weakestAssumptions":[{"proposal":"B","assumption":"Cheap vendors."}],"reason":"B scales."}\n```';
    expect(parseCritiqueText(text)).toEqual({
      ranking: ['B', 'A'],
      weakestAssumptions: [{ proposal: 'B', assumption: 'Cheap vendors.' }],
      reason: 'B scales.',
    });
  });

  it('reads JSON inside prose with other shapes: a ranking string, assumptions by label, one assumption', () => {
    expect(parseCritiqueText('Sure! {"Ranking": "Proposal C > Proposal A", "weakest_assumptions": {"C": "Nobody owns it."}} Hope it helps.')).toEqual({
      ranking: ['Proposal C', 'Proposal A'],
      weakestAssumptions: [{ proposal: 'C', assumption: 'Nobody owns it.' }],
      reason: '',
    });
    expect(parseCritiqueText('{"ranking": [{"proposal": "A"}, {"label": "B"}], "weakestAssumption": "Teams read diffs.", "why": "Simple."}')).toEqual({
      ranking: ['A', 'B'],
      weakestAssumptions: [{ proposal: 'A', assumption: 'Teams read diffs.' }],
      reason: 'Simple.',
    });
  });

  it('reads plain lines, and gives nothing back for an answer without a ranking', () => {
    expect(parseCritiqueText('**Ranking:** B, C, A\nWeakest assumption: That flags get cleaned up.\nReason: B is reversible.')).toEqual({
      ranking: ['B', 'C', 'A'],
      weakestAssumptions: [{ proposal: 'B', assumption: 'That flags get cleaned up.' }],
      reason: 'B is reversible.',
    });
    expect(parseCritiqueText("I'd rather not rank my colleagues.")).toBeNull();
    expect(parseCritiqueText('')).toBeNull();
  });
});

describe('a comment on the plan decides the critique round', () => {
  it('reads adding and dropping it', () => {
    expect(critiqueDirective('Please add a critique round.')).toBe(true);
    expect(critiqueDirective('Looks good, with a critique round at the end')).toBe(true);
    expect(critiqueDirective('no critique round')).toBe(false);
    expect(critiqueDirective("Let's drop the critique round, we just explore.")).toBe(false);
    expect(critiqueDirective("Don't add a critique round")).toBe(false);
    expect(critiqueDirective('Focus on kill switches instead.')).toBeNull();
  });

  it('the latest comment that says something wins', () => {
    const plan = { ...scriptedPlan(), critiqueRound: false };
    expect(withCritiqueDirective(plan, ['add a critique round', 'more on testing']).critiqueRound).toBe(true);
    expect(withCritiqueDirective(plan, ['add a critique round', 'no critique round after all']).critiqueRound).toBe(false);
    expect(withCritiqueDirective(plan, ['more on testing'])).toBe(plan);
    // Answers to the Planner's questions count too, before the comments on the plan.
    const said = plannerComments({ answers: [{ author: 'Alice', text: 'We must decide: add a critique round.' }], revisionRequests: ['Shorter, please.'] });
    expect(withCritiqueDirective(plan, said).critiqueRound).toBe(true);
  });
});
