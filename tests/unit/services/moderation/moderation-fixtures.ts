import { honouringToolChoice } from '../../../support/forcing-model.ts';
import { Agent, type Model } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import pino from 'pino';
import { AGENT_NAMES, type AgentContext } from '../../../../src/core/agent-context.ts';
import { createModeratorAgent } from '../../../../src/agents/moderator/moderator-agent.ts';
import { PromptLibrary } from '../../../../src/agents/prompts/prompt-library.ts';
import { tldrSchema, type ModerationVerdict } from '../../../../src/core/schemas.ts';
import type { AppConfig } from '../../../../src/config/app-config.ts';
import { ModerationService, type ModerationServiceOptions } from '../../../../src/services/moderation/moderation-service.ts';
import { createUpdateNotionTool } from '../../../../src/tools/update-notion.ts';

import { FakeHost, PLAN } from '../../../support/fake-moderation-host.ts';

export { FakeHost, PLAN };

/** A verdict with defaults. */
export function verdict(overrides: Partial<ModerationVerdict>): ModerationVerdict {
  return { action: 'continue', drifting: false, objectivesMet: false, message: '', target: '', reason: 'because', quality: 6, ...overrides };
}

/** Moderator settings like the defaults. */
export function moderatorSettings(overrides: Partial<AppConfig['moderator']> = {}): AppConfig['moderator'] {
  return { checkInterval: 10, driftThreshold: 0.6, maxDriftWarnings: 3, balanceCheck: true, qualityAssessment: true, ...overrides };
}

/** A scripted Scribe and TLDR: the Scribe stores a record and hands off; the TLDR answers with findings. */
export function scriptedScribeAndTldr() {
  const scribeModel = new ScriptedModel([
    [
      functionCall(
        'update_notion',
        {
          document: 'record',
          markdown:
            '# Record\n- Claude: Redis (#1)\n## Next steps\n- [ ] Benchmark Redis against the CDN — Claude (#1)\n- [x] Agree on a TTL (#2)\n## Sources\n- [ ] not a step',
        },
        { callId: 'u1' },
      ),
    ],
    [functionCall('transfer_to_TLDR', {}, { callId: 'h2' })],
  ]);
  const tldrModel = new ScriptedModel([
    [
      assistantMessage(
        JSON.stringify({
          summary: 'We chose Redis.',
          keyFindings: [
            { finding: 'Redis as the cache layer', sources: ['#1'] },
            { finding: 'TTL plus event-based invalidation', sources: ['#2'] },
            { finding: 'Measure p95 before and after', sources: ['#3'] },
          ],
        }),
      ),
    ],
  ]);
  const scribe = new Agent<AgentContext, 'text'>({
    name: AGENT_NAMES.scribe,
    instructions: `You are the Scribe of a Brainstorm session.`,
    model: scribeModel,
    tools: [createUpdateNotionTool()],
  });
  const tldr = new Agent<AgentContext, typeof tldrSchema>({
    name: AGENT_NAMES.tldr,
    instructions: 'You are the TLDR of a Brainstorm session.',
    model: tldrModel,
    outputType: tldrSchema,
  });
  return { scribe, tldr, scribeModel, tldrModel };
}

/** Builds a service around a scripted Moderator model. */
export function buildService(options: {
  host: FakeHost;
  moderatorModel: Model;
  embed?: ((texts: string[]) => Promise<number[][] | null>) | null;
  settings?: Partial<AppConfig['moderator']>;
  ledgerCheck?: ModerationServiceOptions['ledgerCheck'];
}) {
  const prompts = new PromptLibrary();
  const { scribe, tldr, scribeModel, tldrModel } = scriptedScribeAndTldr();
  const moderator = createModeratorAgent({ model: honouringToolChoice(options.moderatorModel), prompts });
  const logger = pino({ level: 'silent' });
  const service = new ModerationService({
    host: options.host,
    moderator,
    scribe,
    tldr,
    prompts,
    settings: () => moderatorSettings(options.settings),
    embed: options.embed ?? null,
    logger,
    ...(options.ledgerCheck ? { ledgerCheck: options.ledgerCheck } : {}),
  });
  return { service, scribeModel, tldrModel };
}
