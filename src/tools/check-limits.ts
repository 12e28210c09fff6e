import { tool, type RunContext } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../core/agent-context.ts';
import type { LimitsReport } from '../core/ports.ts';

function line(label: string, used: number, limit: number, unit = ''): string {
  const percent = limit > 0 ? Math.round((used / limit) * 100) : 0;
  return `${label}: ${Number(used.toFixed(4))}${unit} of ${limit}${unit} (${percent}%)`;
}

/** Renders a limits report as the short text the Moderator reads. */
export function describeLimits(report: LimitsReport): string {
  const balance = report.balance.length === 0 ? 'nobody has spoken yet' : report.balance.map((entry) => `${entry.speaker} ${entry.messages}`).join(', ');
  return [
    line('messages', report.messages.used, report.messages.limit),
    line('tokens', report.tokens.used, report.tokens.limit),
    line('cost', report.costUsd.used, report.costUsd.limit, ' USD'),
    line('elapsed', report.minutes.used, report.minutes.limit, ' min'),
    line('context use', report.contextPercent.used, report.contextPercent.limit, '%'),
    `messages per speaker: ${balance}`,
    `exceeded: ${report.exceeded.length === 0 ? 'none' : report.exceeded.join(', ')}`,
  ].join('\n');
}

/** `check_limits`: messages, tokens, cost, elapsed time, context use and balance, each against its limit. */
export function createCheckLimitsTool() {
  return tool({
    name: 'check_limits',
    description: 'Read the session usage (messages, tokens, cost, elapsed minutes, context use, messages per speaker), each against its limit.',
    parameters: z.object({}),
    async execute(_input, runContext?: RunContext<AgentContext>) {
      const ports = runContext?.context.ports;
      if (!ports) throw new Error('check_limits needs the session ports in its run context');
      return describeLimits(await ports.checkLimits());
    },
  });
}
