import type { ParticipantConfig } from '../../config/roster.ts';
import type { SessionPreset } from '../../config/presets.ts';
import { PLANNING_STATUSES, type Session, type SessionPlan } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';

/** The preset a plan follows and who chose it. */
export interface AppliedPreset {
  preset: SessionPreset;
  /** A person's name (`!preset`, `preset:`), or null when the Planner picked it from the topic. */
  chosenBy: string | null;
}

/**
 * The session presets: which one a session follows (a person's choice wins over the Planner's pick), and what
 * it does to a plan (phases, limits), to the roster (who takes part) and to the roles that rotate.
 */
export class PresetService {
  constructor(
    private readonly presets: readonly SessionPreset[],
    private readonly roster: () => readonly ParticipantConfig[],
  ) {}

  /** Every preset, in the order they are offered. */
  all(): readonly SessionPreset[] {
    return this.presets;
  }

  /** A preset by name or title (case-insensitive), or null. */
  find(name: string | null | undefined): SessionPreset | null {
    const wanted = (name ?? '').trim().toLowerCase();
    if (wanted === '') return null;
    return this.presets.find((preset) => preset.name === wanted || preset.title.toLowerCase() === wanted) ?? null;
  }

  /** A preset a person named; an unknown name is refused with the list. */
  require(name: string): SessionPreset {
    const preset = this.find(name);
    if (!preset) throw new BrainstormError('bad_input', `No preset called "${name.trim()}". ${this.names()}`);
    return preset;
  }

  /** "Presets: `a`, `b`." for refusals and help. */
  names(): string {
    return `Presets: ${this.presets.map((preset) => `\`${preset.name}\``).join(', ')}.`;
  }

  /**
   * The `!preset` listing, ending on what the room it was asked in follows: outside a session, how to start one with a
   * preset; while planning, the choice still open; once the discussion is under way, the preset or the free-form plan.
   */
  describe(session: Pick<Session, 'status' | 'plannerState' | 'plan'> | null): string {
    const lines = this.presets.map((preset) => `• \`${preset.name}\` — **${preset.title}**: ${preset.description}`);
    const current = session ? this.applied(session) : null;
    const now = current
      ? `This session follows **${current.preset.title}** (\`${current.preset.name}\`).`
      : !session
        ? 'Start a session with one: `!brainstorm <topic> preset:<name>`.'
        : PLANNING_STATUSES.includes(session.status)
          ? 'No preset is chosen yet: the Planner picks one from the topic.'
          : 'This session follows no preset: its plan is free-form.';
    return ['**Presets** — `!preset <name>` during planning chooses one.', ...lines, '', now].join('\n');
  }

  /** The preset a session follows: a person's choice, else the one its plan names (the Planner's pick). */
  applied(session: Pick<Session, 'plannerState' | 'plan'>, plan: SessionPlan | null = session.plan): AppliedPreset | null {
    const chosen = session.plannerState.preset;
    const byPerson = chosen ? this.find(chosen.name) : null;
    if (byPerson && chosen) return { preset: byPerson, chosenBy: chosen.by };
    const picked = this.find(plan?.preset);
    return picked ? { preset: picked, chosenBy: null } : null;
  }

  /**
   * The plan as its preset shapes it: the preset named, its phases as the flow, its limits as the parameters. A
   * revision of a plan that already follows the preset keeps the Planner's limits: it revised them from the plan as
   * shown (with the preset's), as a person asked ("make it shorter").
   */
  shape(session: Pick<Session, 'plannerState' | 'plan'>, plan: SessionPlan): SessionPlan {
    const applied = this.applied(session, plan);
    if (!applied) return { ...plan, preset: null };
    const { preset } = applied;
    const revising = session.plan?.preset === preset.name;
    return {
      ...plan,
      preset: preset.name,
      expectedFlow: [...preset.phases],
      parameters: revising ? plan.parameters : { ...plan.parameters, ...preset.limits },
    };
  }

  /** The participants a preset seats (by id or name); everyone when it names none or none of them exist. */
  participants(preset: SessionPreset | null): ParticipantConfig[] {
    const roster = [...this.roster()];
    const wanted = new Set((preset?.participants ?? []).map((name) => name.toLowerCase()));
    if (wanted.size === 0) return roster;
    const seated = roster.filter((participant) => wanted.has(participant.id) || wanted.has(participant.name.toLowerCase()));
    return seated.length > 0 ? seated : roster;
  }

  /** The participant ids a session's preset leaves out (stored on the session, so it outlives a preset file change). */
  leftOut(preset: SessionPreset | null): string[] {
    const seated = new Set(this.participants(preset).map((participant) => participant.id));
    return this.roster()
      .filter((participant) => !seated.has(participant.id))
      .map((participant) => participant.id);
  }

  /** The roles a session's preset rotates, or null for the default rotation. */
  roles(session: Pick<Session, 'plannerState' | 'plan'>): SessionPreset['roles'] | null {
    return this.applied(session)?.preset.roles ?? null;
  }

  /** The lines the plan message shows about its preset. */
  planLines(session: Pick<Session, 'plannerState' | 'plan'>, plan: SessionPlan): string[] {
    const applied = this.applied(session, plan);
    if (!applied) return [`**Preset:** none fits — a free-form session. (\`!preset <name>\` chooses one; ${this.names().replace(/^Presets: /, '')})`];
    const { preset, chosenBy } = applied;
    const who = chosenBy ? `chosen by ${chosenBy}` : 'picked by the Planner for this topic';
    const roles = preset.roles === undefined ? 'proposer, skeptic, pragmatist' : preset.roles.length > 0 ? preset.roles.join(', ') : 'none';
    return [
      `**Preset:** ${preset.title} (\`${preset.name}\`) — ${who}. ${preset.flow}`,
      `**Participants:** ${this.participants(preset)
        .map((participant) => participant.name)
        .join(', ')} · **Roles:** ${roles}`,
    ];
  }

  /** What the Planner reads about presets: the one a person chose, or the list to pick from. */
  plannerNote(session: Pick<Session, 'plannerState'>): string {
    const chosen = this.find(session.plannerState.preset?.name);
    if (chosen)
      return `${session.plannerState.preset?.by ?? 'A person'} chose the preset "${chosen.name}" (${chosen.title}: ${chosen.flow}). Set "preset" to "${chosen.name}" and plan for its phases: ${chosen.phases.join(' → ')}.`;
    const list = this.presets.map((preset) => `- ${preset.name}: ${preset.title} — ${preset.description}`).join('\n');
    return `Presets (set "preset" in the plan to the one that fits the topic, or null when none does):\n${list}`;
  }

  /** A line for the session's record (and its Notion page) naming the preset, or null. */
  recordNote(session: Pick<Session, 'plannerState' | 'plan'>): string | null {
    const applied = this.applied(session);
    if (!applied) return null;
    const who = applied.chosenBy ? `chosen by ${applied.chosenBy}` : 'picked by the Planner';
    return `_Session preset: **${applied.preset.title}** (\`${applied.preset.name}\`, ${who})._`;
  }
}

/** The record with its preset line after the title (kept once, however often the record is rewritten). */
export function withPresetNote(markdown: string, note: string | null): string {
  if (!note) return markdown;
  const without = markdown.replace(/\n?_Session preset: [^\n]*\n?/g, '\n');
  const lines = without.split('\n');
  const title = lines.findIndex((line) => line.startsWith('# '));
  if (title === -1) return `${note}\n\n${without}`;
  return [...lines.slice(0, title + 1), '', note, ...lines.slice(title + 1)].join('\n').replace(/\n{3,}/g, '\n\n');
}

/** `preset:<name>` anywhere in a topic: the preset, and the topic without it. */
export function splitPresetOption(topic: string): { topic: string; preset: string | null } {
  const match = /(?:^|\s)preset:\s*([A-Za-z0-9-]+)(?=\s|$)/i.exec(topic);
  if (!match) return { topic, preset: null };
  return { topic: `${topic.slice(0, match.index)} ${topic.slice(match.index + match[0].length)}`.replace(/\s+/g, ' ').trim(), preset: match[1] ?? null };
}
