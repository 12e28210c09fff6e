// Replies only the person sees ("to you"): kept in this browser per room so a reload keeps them, and placed
// in the transcript where they were said (after the item that was last when they arrived), not piled at the end.
const MAX_NOTES = 200;

function storageKey(roomId) {
  return `brainstorm.notes.${roomId}`;
}

function load(roomId) {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey(roomId)) ?? '[]');
    return Array.isArray(stored) ? stored.filter((note) => typeof note?.content === 'string') : [];
  } catch {
    return [];
  }
}

/** The notes of one room. */
export class Notes {
  constructor(roomId) {
    this.roomId = roomId;
    this.list = load(roomId);
  }

  /** Keeps a note; `afterKey` is the transcript item it follows, `at` when it was said. */
  add(content, afterKey, at = new Date().toISOString()) {
    const key = `${Date.now().toString(36)}-${this.list.length}`;
    this.list = [...this.list, { key, content, afterKey, at }].slice(-MAX_NOTES);
    try {
      localStorage.setItem(storageKey(this.roomId), JSON.stringify(this.list));
    } catch {
      // a full or disabled storage only costs the notes their survival across reloads
    }
  }
}

function timeOf(item) {
  return item.kind === 'message' ? item.message.createdAt : item.delivery.deliveredAt;
}

/** The feed with the notes in place; `keyOf(item)` names an item the way notes anchor to it. */
export function withNotes(items, notes, keyOf) {
  if (notes.length === 0) return items;
  const anchored = new Map();
  const loose = [];
  const keys = new Set(items.map(keyOf));
  for (const note of notes) {
    if (note.afterKey && keys.has(note.afterKey)) anchored.set(note.afterKey, [...(anchored.get(note.afterKey) ?? []), note]);
    else loose.push(note);
  }
  const merged = [];
  let next = 0;
  for (const item of items) {
    while (next < loose.length && loose[next].at < timeOf(item)) merged.push({ kind: 'note', note: loose[next++] });
    merged.push(item);
    for (const note of anchored.get(keyOf(item)) ?? []) merged.push({ kind: 'note', note });
  }
  while (next < loose.length) merged.push({ kind: 'note', note: loose[next++] });
  return merged;
}
