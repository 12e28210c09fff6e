/** One ledger pass (the `idea_ledger` job's body): extract, check, deduplicate, store. */
import type { IdeaExtraction } from '../../agents/ideas/idea-extractor-agent.ts';
import type { IdeasRepository } from '../../repositories/ideas-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import { isCritiqueBallot } from '../../core/critique.ts';
import type { ChatMessage } from '../../core/domain.ts';
import type { EmbedFunction } from '../../core/service-ports.ts';
import { checkExtraction, embeddingTexts, mergeIntoLedger, type MergeResult } from './ledger-merge.ts';
import { extractionInput } from './ledger-runs.ts';

const IDEA_SPEAKERS = new Set(['human', 'participant']);

/** What a pass needs. */
export interface LedgerPassDependencies {
  repository: Pick<IdeasRepository, 'ledger' | 'savePass'>;
  messages: Pick<MessagesRepository, 'listForSession'>;
  sessions: Pick<SessionsRepository, 'findById'>;
  clock: Clock;
  /** Runs the extractor on an input; throws when the model fails. */
  extract: (sessionId: string, input: string, signal: AbortSignal) => Promise<IdeaExtraction>;
  embed: EmbedFunction | null;
  similarity: () => number;
}

/**
 * Messages ideas come from: what people and participants said in the room once the discussion began (`startedAt`, the
 * plan's approval). The topic and the answers to the Planner shaped the plan, and a critique ballot ranks the ideas:
 * none of them is an idea someone proposed.
 */
export function ideaMessages(messages: readonly ChatMessage[], startedAt: Date | null): ChatMessage[] {
  return messages.filter(
    (message) =>
      IDEA_SPEAKERS.has(message.speaker.kind) &&
      message.deliveryStatus !== 'withheld' &&
      message.deliveryStatus !== 'internal' &&
      message.text.trim() !== '' &&
      !isCritiqueBallot(message.text) &&
      (startedAt === null || message.createdAt.getTime() >= startedAt.getTime()),
  );
}

async function embedAll(embed: EmbedFunction | null, texts: string[]): Promise<number[][] | null> {
  if (!embed || texts.length === 0) return null;
  try {
    const vectors = await embed(texts);
    return vectors && vectors.length === texts.length ? vectors : null;
  } catch {
    return null;
  }
}

/**
 * Runs a pass over the messages since the last one. Returns what it merged, or null when there was nothing new
 * (or another process stored the same pass). A model failure throws: the job retries and no round is counted.
 */
export async function runLedgerPass(deps: LedgerPassDependencies, sessionId: string, signal: AbortSignal): Promise<MergeResult | null> {
  const session = await deps.sessions.findById(sessionId);
  if (!session) return null;
  const ledger = await deps.repository.ledger(sessionId);
  const last = ledger.passes.at(-1);
  const all = ideaMessages(await deps.messages.listForSession(sessionId), session.startedAt);
  const fresh = all.filter((message) => message.id > (last?.lastMessageId ?? 0));
  if (fresh.length === 0) return null;
  const topic = session.plan?.expandedTopic ?? session.topic;
  const extraction = await deps.extract(sessionId, extractionInput(topic, ledger.ideas, fresh), signal);
  const scope = {
    speakers: [...new Set(all.map((message) => message.speaker.name))],
    // The extractor reads messages as `#number` (citedLine): it cites those numbers, which the ledger stores as ids.
    messages: new Map(all.map((message) => [message.number, { id: message.id, speaker: message.speaker.name }])),
    knownIdeas: new Set(ledger.ideas.map((idea) => idea.number)),
  };
  const checked = checkExtraction(extraction, scope);
  const embeddings = await embedAll(deps.embed, embeddingTexts(checked.ideas, checked.notes));
  const pass = (last?.number ?? 0) + 1;
  const merged = mergeIntoLedger({
    sessionId,
    pass,
    known: ledger.ideas,
    knownNotes: ledger.notes,
    ideas: checked.ideas,
    notes: checked.notes,
    embeddings,
    similarity: deps.similarity(),
  });
  const stored = await deps.repository.savePass(
    {
      pass: {
        sessionId,
        number: pass,
        lastMessageId: fresh.at(-1)?.id ?? 0,
        messages: fresh.length,
        candidates: merged.candidates,
        newIdeas: merged.newIdeas,
        duplicates: merged.duplicates,
        newObjections: merged.newObjections,
      },
      ideas: merged.changed,
      notes: merged.notes,
    },
    deps.clock.now(),
  );
  return stored ? merged : null;
}
