import type { Logger } from 'pino';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { ContextManager } from '../context/context-manager.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import { PLANNING_STATUSES, type Session } from '../../core/domain.ts';
import { commandSpec, FOCUS_MAX_CHARS } from '../../core/command-catalog.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { CommandInvocation, DocumentationPort, GatewayReply } from '../../core/ports.ts';
import type { PlannerFlow } from '../sessions/planner-flow.ts';
import type { RosterService } from '../sessions/roster-service.ts';
import type { PresetService } from '../sessions/session-presets.ts';
import type { FocusRequest, ModerationPort } from '../../core/service-ports.ts';
import type { SessionLifecycle } from '../sessions/session-lifecycle.ts';
import type { Screen, SessionStarter } from '../sessions/session-starter.ts';
import { CommandRateLimiter } from './command-rate-limiter.ts';
import { COMMAND_STATES, findCommand, formatHelp, unknownCommand, wrongState, type CommandAnswer, type CommandDefinition } from './command-table.ts';
import { formatStatus } from './status-format.ts';
import { listNextSteps, markNextStep, type PeoplesRecordWriter } from './next-steps-commands.ts';
import { KeyedSerialQueue } from '../../core/keyed-serial-queue.ts';
import { receivesDocumentFiles } from '../documentation/document-files.ts';

export type { PeoplesRecordWriter } from './next-steps-commands.ts';

/** `!config` is served by the settings module. */
export interface AdminSettingsPort {
  /** Validates, persists and audits a setting; returns the confirmation to show. */
  apply(setting: string, value: string, by: { id: string; name: string }): Promise<string>;
  /** The tunable settings with their current values. */
  describe(): Promise<string>;
}

/** Where `!summary` gets a summary that covers the latest messages (the documentation service fits). */
export interface FreshSummarySource {
  freshSummary(sessionId: string): Promise<string | null>;
}

/** What the command service needs. */
export interface CommandServiceOptions {
  sessions: SessionsRepository;
  lifecycle: SessionLifecycle;
  planner: PlannerFlow;
  delivery: DeliveryService;
  limits: LimitsService;
  context: ContextManager;
  documentation: DocumentationPort & FreshSummarySource & PeoplesRecordWriter;
  moderation: ModerationPort;
  roster: RosterService;
  settings: AdminSettingsPort;
  /** `!explore` (a linked sub-session) and `!brainstorm <topic>` (a session started from the conversation here). */
  starter: Pick<SessionStarter, 'explore' | 'startFromConversation'>;
  /** The session presets (`!preset`). */
  presets: PresetService;
  clock: Clock;
  logger: Logger;
  commandsPerMinute: () => number;
  /** The idea ledger (`!ideas`). */
  ideas?: { describe(session: Session): Promise<string> };
  /** The screen of a person's message: what `!focus` names reaches the Moderator and may be posted, so it passes it too. */
  screen: Screen;
}

const reply = (content: string, isPrivate = false): GatewayReply => ({ content, private: isPrivate });

/**
 * `!record`: the detailed record brought up to the last message (an urgent Scribe pass, which writes nothing when
 * nothing new was said), posted in a Discord room as a Markdown file; the console shows it on the session's page.
 */
async function postRecord(o: Pick<CommandServiceOptions, 'documentation' | 'delivery'>, session: Session): Promise<string> {
  if (PLANNING_STATUSES.includes(session.status)) return 'No record yet — the Scribe starts once the plan is approved.';
  await o.documentation.requestRecord(session.id, { urgent: true });
  if (!(await o.documentation.latestRecord(session.id))) return 'No record yet — nothing has been said to record.';
  if (!receivesDocumentFiles(session)) return 'The detailed record is on the session’s page in the console (its Detailed record panel, or “Open as a page”).';
  await o.delivery.post(session, { kind: 'scribe', name: 'Scribe' }, 'The detailed record so far, as a Markdown file.', { attachDocuments: ['record'] });
  return 'Record posted.';
}

/** Why `!summary` has nothing to post: before the discussion there is nothing to sum up; after, it is on its way. */
function noSummaryYet(session: Session): string {
  if (PLANNING_STATUSES.includes(session.status)) return 'No summary yet — the discussion starts once the plan is approved.';
  return 'No summary yet — the first one is still being written; try `!summary` again in a minute.';
}

/**
 * What `!focus` names: "disclosure timelines" from `!focus disclosure timelines`, `!focus on …` or the slash command's
 * `on:…`; null when nothing is named. Longer than a subject is refused (it belongs in the discussion).
 */
function focusRequest(args: string, by: string): FocusRequest | null {
  const text = args
    .trim()
    .replace(/^on(?::|\s)\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  if (text.length > FOCUS_MAX_CHARS)
    throw new BrainstormError('bad_input', `Name what to focus on in ${FOCUS_MAX_CHARS} characters at most; say more in the discussion itself.`);
  // The Moderator repeats it in its own voice: a link or a mention there would look like the bot's own.
  if (/https?:\/\/|www\.|\]\(|<[@#]|@everyone|@here/i.test(text))
    throw new BrainstormError('bad_input', 'Name what to focus on in words; post links and mentions in the discussion itself.');
  return { text, by };
}

/** The one command table behind `!` commands, slash commands and buttons. */
export class CommandService {
  readonly table: CommandDefinition[];
  private readonly rateLimiter: CommandRateLimiter;
  /** `!done` and `!reopen` of a session one at a time: two presses of one button get one "done" and one "Already done". */
  private readonly stepEdits = new KeyedSerialQueue();

  constructor(private readonly options: CommandServiceOptions) {
    this.rateLimiter = new CommandRateLimiter(options.clock, options.commandsPerMinute);
    this.table = this.buildTable();
  }

  /** Runs a command; every refusal is a clear reply and changes nothing. */
  async run(invocation: CommandInvocation): Promise<GatewayReply> {
    const command = findCommand(this.table, invocation.name);
    if (!command) return reply(unknownCommand(this.table, invocation.name, invocation.args), true);
    if (command.admin && !invocation.author.isAdmin) {
      return reply(`\`!${command.name}\` is for admins (Manage Server permission or the admin role).`, true);
    }
    if (!command.unlimited) {
      const wait = this.rateLimiter.attempt(invocation.author.id);
      if (wait > 0) return reply(`Easy there — too many commands. Try again in ${wait} s.`, true);
    }
    const session = invocation.roomId ? await this.options.sessions.findByRoom(invocation.transport, invocation.roomId) : null;
    if (command.states && !session)
      return reply(`\`!${command.name}\` works inside a session thread. Post a topic in the brainstorm channel to start one.`, true);
    if (command.states && session && !command.states.includes(session.status)) {
      return reply(wrongState(command, session.status), true);
    }
    const answer = await command.run({ invocation, session });
    this.options.logger.info({ command: command.name, by: invocation.author.id, session: session?.id }, 'command');
    return typeof answer === 'string' ? reply(answer, false) : { private: false, ...answer };
  }

  private markStep(session: Session, invocation: CommandInvocation, done: boolean): Promise<string | CommandAnswer> {
    return this.stepEdits.run(session.id, () => markNextStep(this.options, session, invocation, done));
  }

  private buildTable(): CommandDefinition[] {
    const o = this.options;
    const need = (session: Session | null): Session => {
      if (!session) throw new BrainstormError('not_found', 'No session here.');
      return session;
    };
    // Words, usage and admin flags come from the one catalog that also generates the slash command.
    const define = (definition: Pick<CommandDefinition, 'name' | 'states' | 'run'> & Partial<Pick<CommandDefinition, 'unlimited'>>): CommandDefinition => {
      const { aliases, usage, description, admin } = commandSpec(definition.name);
      return { aliases, usage, description, admin, ...definition };
    };
    return [
      // The reply comes from the planner: it says "approved" only once the discussion has actually started.
      define({ name: 'approve', states: COMMAND_STATES.approve, run: async ({ session, invocation }) => o.planner.approve(need(session), invocation.author) }),
      define({
        name: 'continue',
        states: COMMAND_STATES.continue,
        run: async ({ session }) => {
          await o.lifecycle.resume(need(session).id);
          return 'Discussion resumed.';
        },
      }),
      define({
        name: 'stop',
        states: COMMAND_STATES.stop,
        unlimited: true,
        run: async ({ session, invocation }) => {
          await o.lifecycle.end(need(session).id, 'stopped', `stopped by ${invocation.author.name}`);
          return 'Stopped. Wrapping up…';
        },
      }),
      define({
        name: 'pause',
        states: COMMAND_STATES.pause,
        unlimited: true,
        run: async ({ session }) => {
          await o.lifecycle.pause(need(session).id);
          return 'Paused: answers already being written will still arrive, and no new ones start. Type `!continue` to resume.';
        },
      }),
      define({
        name: 'explore',
        states: COMMAND_STATES.explore,
        run: async ({ session, invocation }) => {
          if (invocation.args.trim() === '') throw new BrainstormError('bad_input', 'Say what to explore: `!explore <topic>`.');
          return o.starter.explore(need(session), invocation.args.trim(), invocation);
        },
      }),
      define({
        name: 'brainstorm',
        states: null,
        run: async ({ invocation }) => {
          if (invocation.args.trim() === '') throw new BrainstormError('bad_input', 'Say what to brainstorm about: `!brainstorm <topic>`.');
          return o.starter.startFromConversation(invocation.args.trim(), invocation);
        },
      }),
      define({
        name: 'preset',
        states: null,
        run: async ({ session, invocation }) => {
          if (invocation.args.trim() === '') return o.presets.describe(session);
          const current = need(session);
          if (!PLANNING_STATUSES.includes(current.status))
            throw new BrainstormError('wrong_state', `A preset is chosen while the session is planned; this one is ${current.status.replace('_', ' ')}.`);
          return o.planner.choosePreset(current, invocation.args.trim().replace(/^preset:/i, ''), invocation.author);
        },
      }),
      define({ name: 'status', states: COMMAND_STATES.status, run: async ({ session }) => formatStatus(need(session), await o.limits.report(need(session))) }),
      define({
        name: 'refresh',
        states: COMMAND_STATES.refresh,
        run: async ({ session }) => {
          const record = await o.documentation.refreshRecord(need(session).id);
          o.context.forceRefresh(need(session).id);
          return record
            ? `Context refreshed from the record (${record.length.toLocaleString('en-US')} characters).`
            : 'No record yet — the context stays as it is; the Scribe writes one as the discussion goes on.';
        },
      }),
      define({
        name: 'focus',
        states: COMMAND_STATES.focus,
        run: async ({ session, invocation }) => {
          const focus = focusRequest(invocation.args, invocation.author.name);
          const verdict = focus ? await o.screen(focus.text, need(session).id, 'message') : null;
          if (verdict?.verdict === 'blocked') throw new BrainstormError('guardrail_tripped', verdict.explanation);
          return o.moderation.refocus(need(session), focus);
        },
      }),
      define({
        name: 'summary',
        states: COMMAND_STATES.summary,
        run: async ({ session }) => {
          const tldr = await o.documentation.freshSummary(need(session).id);
          if (!tldr) return noSummaryYet(need(session));
          await o.delivery.post(need(session), { kind: 'tldr', name: 'TLDR' }, tldr);
          return 'Summary posted.';
        },
      }),
      define({
        name: 'record',
        states: COMMAND_STATES.record,
        run: async ({ session }) => postRecord(o, need(session)),
      }),
      define({ name: 'steps', states: COMMAND_STATES.steps, run: async ({ session }) => listNextSteps(o, need(session)) }),
      define({ name: 'done', states: COMMAND_STATES.done, run: async ({ session, invocation }) => this.markStep(need(session), invocation, true) }),
      define({ name: 'reopen', states: COMMAND_STATES.reopen, run: async ({ session, invocation }) => this.markStep(need(session), invocation, false) }),
      define({
        name: 'ideas',
        states: COMMAND_STATES.summary,
        run: async ({ session }) => (o.ideas ? o.ideas.describe(need(session)) : 'The idea ledger is not available.'),
      }),
      define({
        name: 'config',
        states: null,
        run: async ({ invocation }) => {
          const [setting, ...rest] = invocation.args.split(/\s+/).filter(Boolean);
          if (!setting) return o.settings.describe();
          if (rest.length === 0) throw new BrainstormError('bad_input', 'Usage: `!config <setting> <value>`.');
          return o.settings.apply(setting, rest.join(' '), invocation.author);
        },
      }),
      define({
        name: 'enable',
        states: null,
        run: async ({ invocation }) => {
          const participant = await o.roster.setEnabled(invocation.args, true, invocation.author);
          return `${participant.name} is enabled.`;
        },
      }),
      define({
        name: 'disable',
        states: null,
        run: async ({ invocation }) => {
          const participant = await o.roster.setEnabled(invocation.args, false, invocation.author);
          return `${participant.name} is disabled.`;
        },
      }),
      define({
        name: 'reset',
        states: COMMAND_STATES.reset,
        run: async ({ session }) => {
          await o.lifecycle.reset(need(session).id);
          return "Reset for this session: usage counters, elapsed time and the Moderator's check counter start again from zero.";
        },
      }),
      define({ name: 'help', states: null, run: async ({ invocation }) => formatHelp(this.table, invocation.args) }),
    ];
  }
}
