/**
 * What must hold after a bad day on Discord, read from the threads as people see them, the fake Notion and the
 * database: every person's message stored once (those said while no process ran too), every stored answer in its
 * thread exactly once and nothing the bot posted left unaccounted for, no half-written answer, one Notion row a session
 * and nothing sent to Notion that breaks its limits, no work left behind.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { FakeDiscord } from '../fakes/discord/index.ts';
import type { RecordedMessage } from '../fakes/discord/fake-model.ts';
import { plainText } from '../fakes/notion/fake-markdown.ts';
import type { FakeNotion } from '../fakes/notion/fake-notion.ts';
import { jobProblems } from './chaos-checks.ts';

/** A person's message the run posted in a thread. */
export interface SaidInThread {
  threadId: string;
  messageId: string;
  atMs: number;
}

/** What the checks read. */
export interface DiscordChaosWorld {
  discord: FakeDiscord;
  notion: FakeNotion;
  threads: string[];
  /** The topic messages posted in the channel (some while no process ran): each opens one session. */
  topics: string[];
  said: SaidInThread[];
  now: Date;
}

interface ThreadSession {
  id: string;
  roomId: string;
  endedAt: Date | null;
}

/** The problems found, each a line a person can follow up, with how many stored answers and Notion rows were checked. */
export async function discordChaosProblems(
  db: Kysely<Database>,
  world: DiscordChaosWorld,
): Promise<{ problems: string[]; answersChecked: number; rowsChecked: number; pagesChecked: number }> {
  const sessions = (await db.selectFrom('sessions').select(['id', 'room_id', 'ended_at']).where('room_id', 'in', world.threads).execute()).map(
    (row): ThreadSession => ({ id: row.id, roomId: row.room_id, endedAt: row.ended_at }),
  );
  const missing = world.threads.filter((threadId) => !sessions.some((session) => session.roomId === threadId));
  const threads = await threadProblems(db, world.discord, sessions);
  const rows = notionProblems(world.notion, sessions, await notionIdsKept(db));
  return {
    problems: [
      ...missing.map((threadId) => `thread ${threadId} has no session`),
      ...(await topicProblems(db, world)),
      ...(await peopleProblems(db, world.discord, world.said, sessions)),
      ...threads.problems,
      ...rows.problems,
      ...(await documentProblems(db, world.notion, sessions)),
      ...(await jobProblems(db, world.now)),
    ],
    answersChecked: threads.checked,
    rowsChecked: rows.checked,
    pagesChecked: world.notion.store.livePages().length,
  };
}

/** Each topic posted opened one thread and one session on it, those posted while no process ran too. */
async function topicProblems(db: Kysely<Database>, world: DiscordChaosWorld): Promise<string[]> {
  if (world.topics.length === 0) return [];
  const sessions = await db.selectFrom('sessions').select(['origin_message_id', 'room_id']).where('origin_message_id', 'in', world.topics).execute();
  return world.topics.flatMap((topicId) => {
    const threadId = world.discord.state.findMessage(topicId)?.threadId;
    const opened = sessions.filter((session) => session.origin_message_id === topicId);
    if (!threadId) return [`topic ${topicId} got no thread`];
    if (opened.length !== 1) return [`topic ${topicId} opened ${opened.length} sessions`];
    return opened[0]?.room_id === threadId ? [] : [`topic ${topicId}'s session is in ${opened[0]?.room_id}, not in its thread ${threadId}`];
  });
}

async function peopleProblems(db: Kysely<Database>, discord: FakeDiscord, said: SaidInThread[], sessions: ThreadSession[]): Promise<string[]> {
  if (said.length === 0) return [];
  const sources = said.map((message) => `discord:${message.messageId}`);
  const rows = await db
    .selectFrom('messages')
    .select(['source_id', 'content', 'deleted_at'])
    .where('speaker_kind', '=', 'human')
    .where('source_id', 'in', sources)
    .execute();
  const stored = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) if (row.source_id) stored.set(row.source_id, [...(stored.get(row.source_id) ?? []), row]);
  return said.flatMap((message) => {
    const copies = stored.get(`discord:${message.messageId}`) ?? [];
    const label = `thread ${message.threadId}: a person's message ${message.messageId}`;
    const session = sessions.find((candidate) => candidate.roomId === message.threadId);
    // What was said after its session ended belongs to no session.
    const open = session !== undefined && (session.endedAt === null || session.endedAt.getTime() > message.atMs);
    if (copies.length > 1) return [`${label} was stored ${copies.length} times`];
    const [copy] = copies;
    const onDiscord = discord.state.findMessage(message.messageId);
    if (!copy) return open && !onDiscord?.deleted ? [`${label} was never stored`] : [];
    if (onDiscord?.deleted) return copy.deleted_at === null ? [`${label} was deleted on Discord but is still in the session`] : [];
    // An edit after the session ended is no longer the session's business.
    const editedAfterEnd = session?.endedAt != null && (onDiscord?.editTimes ?? []).some((at) => at > (session.endedAt?.getTime() ?? 0));
    if (onDiscord && !editedAfterEnd && copy.content.content !== onDiscord.content)
      return [
        `${label} reads ${JSON.stringify(copy.content.content.slice(0, 60))} in the session, but ${JSON.stringify(onDiscord.content.slice(0, 60))} on Discord`,
      ];
    return [];
  });
}

async function threadProblems(db: Kysely<Database>, discord: FakeDiscord, sessions: ThreadSession[]): Promise<{ problems: string[]; checked: number }> {
  const problems: string[] = [];
  let checked = 0;
  for (const session of sessions) {
    const visible = discord.messagesIn(session.roomId);
    const shown = new Map<string, number>(visible.map((message) => [message.id, 1]));
    const messages = await db
      .selectFrom('messages')
      .select(['number', 'speaker_name', 'delivery_status', 'external_ids', 'content'])
      .where('session_id', '=', session.id)
      .where('speaker_kind', '!=', 'human')
      .where('deleted_at', 'is', null)
      .execute();
    const named = new Set<string>();
    for (const message of messages) {
      const label = `thread ${session.roomId}: #${message.number} (${message.speaker_name})`;
      for (const id of message.external_ids) named.add(id);
      if (message.delivery_status === 'pending') problems.push(`${label} is still pending`);
      if (message.delivery_status !== 'delivered') continue;
      checked += 1;
      if (message.external_ids.length === 0) problems.push(`${label} is marked delivered but names no posted message`);
      for (const id of message.external_ids) if (!shown.has(id)) problems.push(`${label}: its posted message ${id} is not in the thread`);
    }
    const texts = messages.map((message) => message.content.content);
    for (const message of visible.filter(fromTheBot)) {
      const label = `thread ${session.roomId}: ${message.id} (${message.origin}, ${message.displayName}: ${excerpt(message)})`;
      if (message.content.includes('▍')) problems.push(`${label} is a half-written answer left behind${textsOverTime(message)}`);
      else if (named.has(message.id)) continue;
      else if (opening(message) !== '' && texts.some((text) => text.includes(opening(message)))) problems.push(`${label} is a second copy of a stored message`);
      else if (message.origin === 'webhook') problems.push(`${label} was posted under a speaker's name, but no stored message names it`);
    }
  }
  return { problems, checked };
}

const fromTheBot = (message: RecordedMessage) => message.origin !== 'person';

/** What a message said before, and when it was edited (ms after its post), to tell which edit left it so. */
function textsOverTime(message: RecordedMessage): string {
  const edits = message.editTimes.map((at) => `+${at - message.createdAtMs} ms`).join(', ');
  const before = message.history.map((text) => JSON.stringify(text.slice(0, 50))).join(' -> ');
  return ` (before: ${before || 'nothing'}; edited at ${edits || 'no time'})`;
}

/**
 * The start of a post's own words, to find the stored message it copies. What the bot says as itself and stores
 * nowhere is its replies to commands ("Paused."), which no stored message holds.
 */
const opening = (message: RecordedMessage) => message.content.trim().slice(0, 60);

const excerpt = (message: RecordedMessage) => JSON.stringify(message.content.slice(0, 70));

/** Every Notion id the app keeps: its database, the sessions' rows and their documents' pages. */
async function notionIdsKept(db: Kysely<Database>): Promise<Set<string>> {
  const objects = await db.selectFrom('notion_objects').select('object_id').execute();
  const documents = await db.selectFrom('documents').select('external_id').where('external_id', 'is not', null).execute();
  const ids = new Set<string>();
  for (const { object_id: value } of objects) for (const id of value.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? []) ids.add(id);
  for (const { external_id: id } of documents) if (id) ids.add(id);
  return ids;
}

/** Each session's record and summary reached Notion once the outages ended, on a live page of their own. */
async function documentProblems(db: Kysely<Database>, notion: FakeNotion, sessions: ThreadSession[]): Promise<string[]> {
  if (sessions.length === 0) return [];
  const documents = await db
    .selectFrom('documents')
    .select(['session_id', 'kind', 'version', 'synced_version', 'external_id'])
    .where(
      'session_id',
      'in',
      sessions.map((session) => session.id),
    )
    .where('deleted_at', 'is', null)
    .execute();
  // A version still on its way (its sync waits for a retry after a 429 or an outage) survives the stop in its job.
  const queued = await db.selectFrom('jobs').select('dedupe_key').where('kind', '=', 'notion_sync').where('status', '=', 'pending').execute();
  const onItsWay = new Set(queued.map((job) => job.dedupe_key));
  const live = new Set(notion.store.livePages().map((page) => String(page.id)));
  const owners = new Map<string, string>();
  return documents.flatMap((document) => {
    const label = `session ${document.session_id}: its ${document.kind}`;
    if (onItsWay.has(`${document.session_id}:${document.kind}`)) return [];
    if (document.synced_version !== document.version)
      return [`${label} is at version ${document.version} but Notion has ${document.synced_version}, and no sync is queued`];
    if (!document.external_id) return [`${label} was never written to Notion`];
    if (!live.has(document.external_id)) return [`${label}'s page ${document.external_id} is not a live page in Notion`];
    const shared = owners.get(document.external_id);
    owners.set(document.external_id, label);
    return shared ? [`${label} and ${shared} write to the same page`] : [];
  });
}

function notionProblems(notion: FakeNotion, sessions: ThreadSession[], kept: Set<string>): { problems: string[]; checked: number } {
  const problems: string[] = [];
  // A page nobody keeps the id of is a second copy: made by a process killed before it stored the id, made again.
  for (const page of notion.store.livePages()) {
    const id = String(page.id);
    if (id !== notion.parentPageId && !kept.has(id)) problems.push(`Notion page ${id} (${pageTitle(page)}) is kept by no session: a second copy?`);
  }
  if (notion.store.databaseCount !== 1) problems.push(`Notion holds ${notion.store.databaseCount} sessions databases (one expected)`);
  if (notion.violations > 0) problems.push(`${notion.violations} request(s) to Notion broke its documented limits`);
  const rowsBySession = new Map<string, number>();
  for (const row of notion.store.allRows()) {
    const properties = row.properties as Record<string, { rich_text?: unknown }>;
    const conversation = plainText(properties['Conversation ID']?.rich_text);
    rowsBySession.set(conversation, (rowsBySession.get(conversation) ?? 0) + 1);
  }
  for (const session of sessions) {
    const count = rowsBySession.get(session.id) ?? 0;
    if (count !== 1) problems.push(`session ${session.id} has ${count} rows in Notion (one expected)`);
  }
  return { problems, checked: sessions.length };
}

function pageTitle(page: Record<string, unknown>): string {
  const properties = page.properties as Record<string, { type?: string; title?: unknown }>;
  return plainText(Object.values(properties).find((value) => value.type === 'title' || value.title !== undefined)?.title);
}

/** What the fakes answered that was not a success, by route: worth a look, not an invariant. */
export function discordRequestNotes(discord: FakeDiscord, notion: FakeNotion): string[] {
  const counts = new Map<string, number>();
  for (const entry of discord.router.log) if (entry.status >= 400) bump(counts, `Discord ${entry.status} on ${entry.routeName}`);
  for (const request of notion.requests)
    if (request.status >= 400) bump(counts, `Notion ${request.status} ${request.code ?? ''} on ${request.method} ${shape(request.path)}`);
  return [...counts].map(([what, count]) => `${count} × ${what}`);
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** A Notion path with its ids taken out, so requests of one kind count together. */
const shape = (path: string) => path.replace(/[0-9a-f-]{32,36}/g, ':id');
