/** Data source schemas and row values of the fake Notion, checked as Notion checks them. */
import { plainText } from './fake-markdown.ts';
import type { JsonObject, StoredDataSource, StoredPage } from './notion-records.ts';
import { FakeNotionError, propertyValue } from './notion-values.ts';

const PROPERTY_TYPES = ['title', 'rich_text', 'number', 'select', 'multi_select', 'date', 'url', 'checkbox', 'status'];

/** Adds, changes or (with null) removes properties of a data source's schema. */
export function addProperties(source: StoredDataSource, properties: JsonObject): void {
  for (const [name, definition] of Object.entries(properties)) {
    if (definition === null) {
      delete source.properties[name];
      continue;
    }
    const type = PROPERTY_TYPES.find((candidate) => typeof definition === 'object' && candidate in (definition as JsonObject));
    if (!type) throw new FakeNotionError(400, 'validation_error', `body failed validation: property ${name} has no known type.`);
    const config = ((definition as JsonObject)[type] ?? {}) as JsonObject;
    source.properties[name] = {
      id: source.properties[name]?.id ?? `prop${Object.keys(source.properties).length + 1}`,
      name,
      type,
      [type]: type === 'select' || type === 'multi_select' ? { options: config.options ?? [] } : config,
    };
  }
}

/** A row's property values from a request, refused where the schema has no such property or another type. */
export function propertyValues(source: StoredDataSource, values: JsonObject): Record<string, JsonObject> {
  const result: Record<string, JsonObject> = {};
  for (const [name, value] of Object.entries(values)) {
    const schema = source.properties[name];
    if (!schema) throw new FakeNotionError(400, 'validation_error', `${name} is not a property that exists.`);
    const type = String(schema.type);
    if (typeof value !== 'object' || value === null || !(type in value))
      throw new FakeNotionError(400, 'validation_error', `${name} is expected to be ${type}.`);
    const raw = (value as JsonObject)[type];
    result[name] = { id: schema.id, type, [type]: propertyValue(type, raw, schema) };
  }
  for (const [name, schema] of Object.entries(source.properties)) {
    if (!(name in result))
      result[name] = {
        id: schema.id,
        type: schema.type,
        [String(schema.type)]: String(schema.type) === 'title' || String(schema.type) === 'rich_text' || String(schema.type) === 'multi_select' ? [] : null,
      };
  }
  return result;
}

/** Whether a row passes a query's filter (one property's `equals`, the only filter our code sends). */
export function matchesFilter(page: StoredPage, filter: JsonObject | undefined): boolean {
  if (!filter || typeof filter.property !== 'string') return true;
  const value = page.properties[filter.property];
  if (!value) return false;
  const condition = (filter.rich_text ?? filter.title ?? filter.url) as JsonObject | undefined;
  if (!condition || !('equals' in condition)) return true;
  const type = String(value.type);
  const actual = type === 'url' ? value.url : plainText(value[type]);
  return actual === condition.equals;
}
