/** Value helpers of the fake Notion: errors, rich text, ids, property values, pagination. */

type JsonObject = Record<string, unknown>;

/** An error the fake answers with Notion's shape. */
export class FakeNotionError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Rich text as Notion returns it. */
export function richTextResponse(items: unknown): JsonObject[] {
  if (!Array.isArray(items)) return [];
  return items.map((item: { text?: { content?: string; link?: { url?: string } | null } }) => {
    const content = item.text?.content ?? '';
    return {
      type: 'text',
      text: { content, link: item.text?.link ?? null },
      annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' },
      plain_text: content,
      href: item.text?.link?.url ?? null,
    };
  });
}

/** Notion's normalised id (dashed UUID) of an id given with or without dashes. */
export function normaliseId(id: string): string {
  const hex = id.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return id;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A property value as Notion returns it, from the request value of a property of `type`. */
export function propertyValue(type: string, raw: unknown, schema: JsonObject): unknown {
  if (type === 'title' || type === 'rich_text') return richTextResponse(raw);
  if (type === 'number') {
    if (raw !== null && typeof raw !== 'number') throw new FakeNotionError(400, 'validation_error', `${String(schema.name)} is expected to be number.`);
    return raw;
  }
  if (type === 'select' || type === 'status')
    return raw === null ? null : { id: `opt-${String((raw as JsonObject).name)}`, name: (raw as JsonObject).name, color: 'default' };
  if (type === 'multi_select') return (raw as JsonObject[]).map((option) => ({ id: `opt-${String(option.name)}`, name: option.name, color: 'default' }));
  if (type === 'date') return raw === null ? null : { start: (raw as JsonObject).start, end: (raw as JsonObject).end ?? null, time_zone: null };
  return raw;
}

/** One page of a list response (`start_cursor` is the id of the first item; at most 100 per page). */
export function paginate(items: JsonObject[], startCursor: unknown, pageSize: unknown, type: string): JsonObject {
  const size = Math.min(100, Math.max(1, Number(pageSize ?? 100) || 100));
  const start = typeof startCursor === 'string' && startCursor ? items.findIndex((item) => item.id === startCursor) : 0;
  if (start < 0) throw new FakeNotionError(400, 'validation_error', 'body failed validation: start_cursor should be a valid cursor.');
  const slice = items.slice(start, start + size);
  const next = items[start + size];
  return { object: 'list', results: slice, next_cursor: next ? next.id : null, has_more: !!next, type, [type]: {} };
}
