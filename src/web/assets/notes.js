// Replies only the person sees ("to you"): kept in this browser per room so a reload keeps them, and placed
// in the transcript where they were said (after the item that was last when they arrived), not piled at the end.
const MAX_NOTES = 200;

function storageKey(roomId, kind = 'notes') {
  return `brainstorm.${kind}.${roomId}`;
}

function load(roomId, kind) {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey(roomId, kind)) ?? '[]');
    return Array.isArray(stored) ? stored : [];
  } catch {
    return [];
  }
}

function save(roomId, kind, value) {
  try {
    localStorage.setItem(storageKey(roomId, kind), JSON.stringify(value));
  } catch {
    // a full or disabled storage only costs the notes their survival across reloads
  }
}

/**
 * The key of a command button on one transcript item: pressed once with effect, it is not shown there again (a list
 * shown later, after `!reopen`, has its own).
 */
export function buttonKey(itemKey, button) {
  return `${itemKey}|${button.command} ${button.args}`;
}

/** The notes of one room, and the command buttons pressed in it. */
export class Notes {
  constructor(roomId) {
    this.roomId = roomId;
    this.list = load(roomId, 'notes').filter((note) => typeof note?.content === 'string');
    this.pressed = new Set(load(roomId, 'pressed').filter((key) => typeof key === 'string'));
  }

  /** Keeps a note; `afterKey` is the transcript item it follows, `at` when it was said, `buttons` those under it. */
  add(content, afterKey, at = new Date().toISOString(), buttons = []) {
    const key = `${Date.now().toString(36)}-${this.list.length}`;
    this.list = [...this.list, { key, content, afterKey, at, buttons: Array.isArray(buttons) ? buttons : [] }].slice(-MAX_NOTES);
    save(this.roomId, 'notes', this.list);
  }

  /** A button that did its work (a step ticked): taken off the item it is on. */
  press(itemKey, button) {
    this.pressed.add(buttonKey(itemKey, button));
    save(this.roomId, 'pressed', [...this.pressed].slice(-MAX_NOTES));
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
