import type { Session } from '../../core/domain.ts';
import type { LimitsReport } from '../../core/ports.ts';

const BAR_WIDTH = 12;

/** A text progress bar: `███████░░░░░`. */
export function progressBar(used: number, limit: number): string {
  const ratio = limit > 0 ? Math.min(1, Math.max(0, used / limit)) : 0;
  const filled = Math.round(ratio * BAR_WIDTH);
  return `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
}

function row(label: string, used: number, limit: number, shown: string): string {
  return `${label.padEnd(9)}${progressBar(used, limit)}  ${shown}`;
}

/** `!status`: the session state and every limit as a progress bar. */
export function formatStatus(session: Session, report: LimitsReport): string {
  const lines = [
    row('Messages', report.messages.used, report.messages.limit, `${report.messages.used}/${report.messages.limit}`),
    row('Tokens', report.tokens.used, report.tokens.limit, `${report.tokens.used.toLocaleString('en-US')}/${report.tokens.limit.toLocaleString('en-US')}`),
    row('Cost', report.costUsd.used, report.costUsd.limit, `$${report.costUsd.used.toFixed(2)}/$${report.costUsd.limit.toFixed(2)}`),
    row('Time', report.minutes.used, report.minutes.limit, `${Math.floor(report.minutes.used)}/${report.minutes.limit} min`),
    row('Context', report.contextPercent.used, report.contextPercent.limit, `${report.contextPercent.used}%/${report.contextPercent.limit}%`),
  ];
  const balance = report.balance.map((entry) => `${entry.speaker} ${entry.messages}`).join(' · ') || 'nobody yet';
  return [`**Status:** ${session.status.replace('_', ' ')} — ${session.topic.slice(0, 120)}`, '```', ...lines, '```', `Messages by speaker: ${balance}`].join(
    '\n',
  );
}
