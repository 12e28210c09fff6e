import type { Logger } from 'pino';
import { runForcedAct } from '../../agents/forced-act.ts';
import { postToDiscordGuardrail } from '../../agents/guardrails/tool-guardrails.ts';
import type { ModeratorAgent } from '../../agents/moderator/moderator-agent.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import { createPostToDiscordTool } from '../../tools/post-to-discord.ts';
import { AGENT_NAMES } from '../../core/agent-context.ts';
import type { Session } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { ReplyButton, ToolPorts } from '../../core/ports.ts';
import type { ModerationHost } from './moderation-host.ts';

/** The prompt of a post the Moderator must make (`prompts/moderator-post.txt`). */
export const POST_PROMPT = 'moderator-post';

/** Why the Moderator posts: the reason is shown to the model and recorded in the trace. */
export type PostPurpose = 'redirect' | 'invite' | 'hold' | 'closing';

/** What the Moderator's voice needs. */
export interface ModeratorVoiceOptions {
  moderator: ModeratorAgent;
  prompts: PromptLibrary;
  host: Pick<ModerationHost, 'toolPorts' | 'postAsModerator' | 'getSession'>;
  logger: Logger;
}

/** How a post reached the room: through the Moderator's `post_to_discord`, or by the service when the model failed. */
export interface SpokenPost {
  content: string;
  via: 'tool' | 'service';
}

/** Parts a post must keep whatever the model's wording (the closing's reason, findings and links). */
export interface PostRequirements {
  /** When the model's wording lacks `needle`, `line` is added after it (the closing's reason). */
  mustMention?: { needle: string; line: string }[];
  /** Facts posted under the Moderator's words as they are (findings, document links): never reworded. */
  appendix?: string;
  /** Command buttons under the post (the closing's "Done n" for the open next steps), whoever words it. */
  buttons?: ReplyButton[];
  /** A post in its own trace (checks); the closing is already inside the wrap-up trace. */
  ownTrace?: boolean;
}

/** Closing messages carry the record's findings and links: longer than a check's redirect. */
const MAX_CHARS: Record<PostPurpose, number> = { redirect: 1500, invite: 1500, hold: 1500, closing: 8000 };

/**
 * The Moderator speaks through its tool: every redirect, invitation, hold and closing is a forced
 * `post_to_discord` call of the Moderator agent (so traces show the tool span and the guardrail that checked it);
 * the service only guarantees delivery, posting the draft itself when the model fails.
 */
export class ModeratorVoice {
  constructor(private readonly options: ModeratorVoiceOptions) {}

  /** Posts `draft` (the Moderator may reword it); stop means stop: nothing but the closing after the session ended. */
  async say(session: Session, draft: string, purpose: PostPurpose, requirements: PostRequirements = {}): Promise<SpokenPost | null> {
    if (purpose !== 'closing' && !(await this.stillActive(session.id))) return null;
    let posted: string | null = null;
    const base = this.options.host.toolPorts(session);
    const extras = { buttons: requirements.buttons ?? [] };
    const ports: ToolPorts = {
      ...base,
      postToRoom: async (speaker, content) => {
        if (purpose !== 'closing' && !(await this.stillActive(session.id)))
          throw new BrainstormError('wrong_state', 'The session has ended; nothing more is posted.');
        const complete = withRequired(content, requirements);
        await base.postToRoom(speaker, complete, extras);
        posted = complete;
      },
    };
    const outcome = await runForcedAct({
      agent: this.options.moderator,
      tool: createPostToDiscordTool(
        { kind: 'moderator', name: AGENT_NAMES.moderator },
        { inputGuardrails: [postToDiscordGuardrail({ maxChars: MAX_CHARS[purpose] })] },
      ),
      input: this.options.prompts.render(POST_PROMPT, { purpose, draft }),
      context: { ports, sessionId: session.id },
      acted: () => posted,
      outputGuardrails: false,
      ...(requirements.ownTrace ? { trace: { name: 'Moderator post', metadata: { sessionId: session.id, kind: 'moderator_post', purpose } } } : {}),
    });
    if (posted !== null) return { content: posted, via: 'tool' };
    if (purpose !== 'closing' && !(await this.stillActive(session.id))) return null;
    this.options.logger.warn(
      { sessionId: session.id, purpose, err: outcome.error },
      'the Moderator did not post through post_to_discord; the service posts its draft',
    );
    const complete = withRequired(draft, requirements);
    await this.options.host.postAsModerator(session, complete, extras);
    return { content: complete, via: 'service' };
  }

  private async stillActive(sessionId: string): Promise<boolean> {
    return (await this.options.host.getSession(sessionId))?.status === 'active';
  }
}

/** The post with what it must mention added when the wording lacks it, then the appendix of facts. */
export function withRequired(content: string, requirements: PostRequirements): string {
  const lower = content.toLowerCase();
  const missing = (requirements.mustMention ?? []).filter((entry) => !lower.includes(entry.needle.toLowerCase())).map((entry) => entry.line);
  const body = missing.length === 0 ? content.trimEnd() : `${content.trimEnd()}\n${missing.join('\n')}`;
  return requirements.appendix ? `${body}\n\n${requirements.appendix}` : body;
}
