import type { JsonSchema } from './chat-types.ts';

interface SampleContext {
  root: JsonSchema;
  /** Words to build strings from, so samples read as if about the topic. */
  topic: string;
  depth: number;
}

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const segment of ref.slice(2).split('/')) target = asSchema(target)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return asSchema(target) ?? {};
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') as string | undefined;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** Whether null validates against `schema` (`type: [..., 'null']`, a null choice, or `nullable`). */
function allowsNull(schema: JsonSchema, root: JsonSchema): boolean {
  if (schema.nullable === true || schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  return Array.isArray(choices) && choices.some((choice) => allowsNull(resolveRef(asSchema(choice) ?? {}, root), root));
}

function matchesType(value: unknown, type: string | undefined): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return value !== undefined;
  }
}

function clampNumber(value: number, schema: JsonSchema, integer: boolean): number {
  let result = value;
  if (typeof schema.minimum === 'number') result = Math.max(result, schema.minimum);
  if (typeof schema.maximum === 'number') result = Math.min(result, schema.maximum);
  if (typeof schema.exclusiveMinimum === 'number' && result <= schema.exclusiveMinimum) result = schema.exclusiveMinimum + (integer ? 1 : 0.5);
  if (typeof schema.exclusiveMaximum === 'number' && result >= schema.exclusiveMaximum) result = schema.exclusiveMaximum - (integer ? 1 : 0.5);
  return integer ? Math.round(result) : result;
}

function sampleString(schema: JsonSchema, context: SampleContext, hint: unknown, key: string): string {
  let text = typeof hint === 'string' ? hint : `${key ? `${key} ` : ''}about ${context.topic} (simulated)`.trim();
  if (schema.format === 'date-time') text = '2026-01-01T00:00:00.000Z';
  else if (schema.format === 'uri' || schema.format === 'url') text = 'https://example.invalid/simulated';
  else if (schema.format === 'email') text = 'simulated@example.invalid';
  if (typeof schema.maxLength === 'number' && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
  if (typeof schema.minLength === 'number' && text.length < schema.minLength) text = text.padEnd(schema.minLength, '.');
  return text;
}

function sampleArray(schema: JsonSchema, context: SampleContext, hint: unknown, key: string): unknown[] {
  const items = asSchema(schema.items) ?? {};
  const declaredMinimum = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const minimum = Math.max(declaredMinimum, 1);
  const maximum = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(minimum, 3);
  const hints = Array.isArray(hint) ? hint : [];
  // A hinted array is an answer, empty included ("no open questions"); only a missing one is filled with samples.
  const count = Array.isArray(hint) ? Math.min(maximum, Math.max(declaredMinimum, hints.length)) : Math.min(maximum, Math.max(minimum, 2));
  return Array.from({ length: count }, (_, index) => sampleValue(items, { ...context, depth: context.depth + 1 }, hints[index], `${key} ${index + 1}`));
}

function sampleObject(schema: JsonSchema, context: SampleContext, hint: unknown): Record<string, unknown> {
  const properties = asSchema(schema.properties) ?? {};
  const hints = matchesType(hint, 'object') ? (hint as Record<string, unknown>) : {};
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    result[name] = sampleValue(asSchema(property) ?? {}, { ...context, depth: context.depth + 1 }, hints[name], name);
  }
  return result;
}

/** A value that validates against `schema`, taking `hint` (or its parts) wherever they fit. */
function sampleValue(raw: JsonSchema, context: SampleContext, hint: unknown, key: string): unknown {
  const schema = resolveRef(raw, context.root);
  if ('const' in schema) return schema.const;
  // A hint of null where null is allowed is an answer ("no preset"), not a gap to fill.
  if (hint === null && allowsNull(schema, context.root)) return null;
  if (Array.isArray(schema.enum)) return schema.enum.includes(hint) ? hint : schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) {
    const options = choices.map((choice) => resolveRef(asSchema(choice) ?? {}, context.root));
    const fitting =
      options.find((option) => typeOf(option) !== 'null' && matchesType(hint, typeOf(option))) ?? options.find((option) => typeOf(option) !== 'null');
    return fitting ? sampleValue(fitting, context, hint, key) : null;
  }
  if (Array.isArray(schema.allOf))
    return sampleValue(Object.assign({}, ...schema.allOf.map((part) => resolveRef(asSchema(part) ?? {}, context.root))), context, hint, key);
  const type = typeOf(schema);
  if (context.depth > 8) return type === 'array' ? [] : type === 'object' ? {} : null;
  switch (type) {
    case 'object':
      return sampleObject(schema, context, hint);
    case 'array':
      return sampleArray(schema, context, hint, key);
    case 'string':
      return sampleString(schema, context, hint, key);
    case 'integer':
      return clampNumber(typeof hint === 'number' ? hint : 1, schema, true);
    case 'number':
      return clampNumber(typeof hint === 'number' ? hint : 1, schema, false);
    case 'boolean':
      return typeof hint === 'boolean' ? hint : false;
    case 'null':
      return null;
    default:
      return hint ?? null;
  }
}

/** Builds an object that validates against a JSON schema, preferring the values of `hint` where they fit. */
export function sampleFromSchema(schema: JsonSchema, options: { topic?: string; hint?: unknown } = {}): unknown {
  return sampleValue(schema, { root: schema, topic: options.topic ?? 'the topic', depth: 0 }, options.hint, '');
}
