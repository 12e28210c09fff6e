/**
 * Idea ledger benchmark: a scripted session (three participants, ten messages per Scribe interval) whose
 * extractions propose ideas, restate them in other words, object, then only repeat themselves, merged with the
 * simulator's embeddings until the ledger measures convergence. Prints the ledger's figures (see the README).
 */
import pino from 'pino';
import { ModelCatalog } from '../src/agents/models/model-catalog.ts';
import type { IdeaExtraction } from '../src/agents/ideas/idea-extractor-agent.ts';
import { buildConfig } from '../src/config/load-config.ts';
import { systemClock } from '../src/core/clock.ts';
import { checkExtraction, embeddingTexts, mergeIntoLedger, type CitableMessage } from '../src/services/ideas/ledger-merge.ts';
import { isConverged, ledgerFigures } from '../src/services/ideas/ledger-metrics.ts';
import type { Idea, LedgerNote, LedgerPass } from '../src/core/idea-ledger.ts';
import { startSimulator } from '../src/simulator/index.ts';
import type { BenchResult } from './moderator-bench.ts';

const SPEAKERS = ['Claude', 'ChatGPT', 'Grok'];
const MESSAGES_PER_PASS = 10;
const CONVERGENCE_ROUNDS = 3;
const MAX_PASSES = 12;

type Raw = IdeaExtraction['ideas'][number];
const raw = (title: string, proposer: string, ids: number[], extra: Partial<Raw> = {}): Raw => ({
  existingIdea: '',
  title,
  summary: title,
  proposer,
  builders: [],
  objectors: [],
  messageIds: ids,
  ...extra,
});

/** The extractor's scripted answer for a pass whose messages are `ids` (the session repeats itself from pass 4). */
function scripted(pass: number, ids: number[]): IdeaExtraction {
  const [a = 0, b = 0, c = 0] = ids;
  const script: Record<number, IdeaExtraction> = {
    1: {
      ideas: [
        raw('Feature flags kept in a config file', 'Claude', [a], { builders: ['Grok'] }),
        raw('A hosted feature flag service', 'ChatGPT', [b], { objectors: ['Claude'] }),
      ],
      disagreements: [
        {
          topic: 'Where flags live',
          sides: [
            { speakers: ['Claude'], position: 'config file' },
            { speakers: ['ChatGPT'], position: 'service' },
          ],
          messageIds: [a, b],
        },
      ],
      openQuestions: [{ question: 'Who removes stale flags?', messageIds: [c] }],
    },
    2: {
      ideas: [
        raw('Feature flags kept in the config file', 'Grok', [a], { builders: ['ChatGPT'] }),
        raw('A kill switch for every flag', 'Grok', [b], { builders: ['Claude', 'ChatGPT'] }),
      ],
      disagreements: [],
      openQuestions: [],
    },
    3: {
      ideas: [
        raw('Expire flags after ninety days', 'ChatGPT', [a], { builders: ['Grok'], objectors: ['Claude'] }),
        raw('A kill switch for each flag', 'Claude', [b]),
      ],
      disagreements: [],
      openQuestions: [],
    },
  };
  return (
    script[pass] ?? {
      ideas: [raw('Feature flags kept in a config file', SPEAKERS[pass % 3] ?? 'Claude', [a], { builders: ['Grok'] })],
      disagreements: [],
      openQuestions: [],
    }
  );
}

/** Runs the scripted session through the ledger's checking, deduplication and convergence measurement. */
export async function runIdeasBench(): Promise<BenchResult[]> {
  const simulator = await startSimulator({ host: '127.0.0.1', port: 0, latencyMs: 0, firstTokenMs: 0 });
  try {
    const config = buildConfig({ OPENROUTER_API_KEY: 'bench-openrouter-key', OPENROUTER_BASE_URL: simulator.url, LOG_LEVEL: 'silent' });
    const catalog = new ModelCatalog(config.models, { clock: systemClock, logger: pino({ level: 'silent' }) });
    let ideas: Idea[] = [];
    const notes: LedgerNote[] = [];
    const passes: LedgerPass[] = [];
    const messages = new Map<number, CitableMessage>();
    for (let pass = 1; pass <= MAX_PASSES && !isConverged(passes, CONVERGENCE_ROUNDS); pass += 1) {
      const ids = Array.from({ length: MESSAGES_PER_PASS }, (_, index) => (pass - 1) * MESSAGES_PER_PASS + index + 1);
      ids.forEach((id, index) => messages.set(id, { id, speaker: SPEAKERS[index % SPEAKERS.length] ?? 'Claude' }));
      const checked = checkExtraction(scripted(pass, ids), { speakers: SPEAKERS, messages, knownIdeas: new Set(ideas.map((idea) => idea.number)) });
      const embeddings = await catalog.embed(embeddingTexts(checked.ideas, checked.notes));
      const merged = mergeIntoLedger({
        sessionId: 'bench',
        pass,
        known: ideas,
        knownNotes: notes,
        ideas: checked.ideas,
        notes: checked.notes,
        embeddings,
        similarity: config.environment.IDEAS_DUPLICATE_SIMILARITY,
      });
      ideas = [...ideas.filter((idea) => !merged.changed.some((entry) => entry.number === idea.number)), ...merged.changed].sort((x, y) => x.number - y.number);
      notes.push(...merged.notes);
      passes.push({
        sessionId: 'bench',
        number: pass,
        lastMessageId: ids.at(-1) ?? 0,
        messages: ids.length,
        candidates: merged.candidates,
        newIdeas: merged.newIdeas,
        duplicates: merged.duplicates,
        newObjections: merged.newObjections,
        createdAt: new Date(pass * 60_000),
      });
    }
    const figures = ledgerFigures(ideas, passes, new Date(passes.length * 60_000));
    return [
      { name: 'ideas_per_100_messages', value: Number(figures.ideasPer100Messages.toFixed(2)), unit: 'ideas' },
      { name: 'duplicate_idea_ratio', value: Number(figures.duplicateIdeaRatio.toFixed(3)), unit: 'ratio' },
      { name: 'agreement_ratio', value: Number((figures.agreementRatio ?? 0).toFixed(3)), unit: 'ratio' },
      { name: 'rounds_without_new_idea_at_close', value: figures.roundsWithoutNewIdeaAtClose ?? 0, unit: 'rounds' },
    ];
  } finally {
    await simulator.close();
  }
}
