import type { FieldMessages } from './schema-helpers.ts';

/**
 * The contracts' bounds and messages applied in the browser: the same keywords, in the same order, and
 * the same `x-messages` wording the gateway's error handler answers with, so a form says exactly what
 * the server would. Interpretive (no code generation), so it runs under a CSP without 'unsafe-eval'.
 * It covers what request bodies use: objects, strings (length, pattern, email/uuid/uri formats, allOf
 * parts), enums, booleans, numbers and integers (bounds), arrays (items, maxItems), nested objects' known
 * properties, unions with null.
 */
type Schema = Record<string, unknown> & { 'x-messages'?: FieldMessages };

export type FieldProblems = Record<string, string>;

const FORMATS: Record<string, RegExp> = {
  // Ajv-formats' "email" (fast mode).
  email:
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i,
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
};

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function typeMatches(schema: Schema, value: unknown): boolean {
  const type = schema.type as string | undefined;
  if (!type) return true;
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  return typeOf(value) === type;
}

/** The first problem with `value` against `schema`, worded like the server's, or undefined. */
export function checkValue(schema: Schema, value: unknown, field: string): string | undefined {
  const messages = schema['x-messages'] ?? {};
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) {
    const problems = variants.map((variant) => checkValue(variant, value, field));
    if (problems.some((problem) => problem === undefined)) return undefined;
    return messages.type ?? problems.find((problem) => problem !== undefined);
  }
  if (!typeMatches(schema, value)) return messages.type ?? `${field} must be ${String(schema.type)}`;
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    const problem = checkValue(part, value, field);
    if (problem) return problem;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    return messages.enum ?? `${field} must be one of: ${schema.enum.join(', ')}`;
  }
  if (typeof value === 'string') return checkString(schema, messages, value, field);
  if (typeof value === 'number') return checkNumber(schema, messages, value, field);
  if (Array.isArray(value)) return checkArray(schema, messages, value, field);
  if (value !== null && typeof value === 'object') return checkObject(schema, value as Record<string, unknown>, field);
  return undefined;
}

/** A nested object's known properties, each as `<field>.<name>` (as the gateway's messages name them). */
function checkObject(schema: Schema, value: Record<string, unknown>, field: string): string | undefined {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (value[name] === undefined) continue;
    const problem = checkValue(propertySchema, value[name], `${field}.${name}`);
    if (problem) return problem;
  }
  return undefined;
}

function checkString(schema: Schema, messages: FieldMessages, value: string, field: string): string | undefined {
  // JSON Schema counts code points, as Ajv does.
  const length = [...value].length;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return messages.maxLength ?? `${field} is too long`;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return messages.minLength ?? `${field} must not be empty`;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    return messages.format ?? `${field} has an invalid format`;
  }
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format && !format.test(value)) return messages.format ?? `${field} has an invalid format`;
  return undefined;
}

function checkNumber(schema: Schema, messages: FieldMessages, value: number, field: string): string | undefined {
  if (typeof schema.maximum === 'number' && value > schema.maximum) return messages.range ?? `${field} must be <= ${schema.maximum}`;
  if (typeof schema.minimum === 'number' && value < schema.minimum) return messages.range ?? `${field} must be >= ${schema.minimum}`;
  return undefined;
}

function checkArray(schema: Schema, messages: FieldMessages, value: unknown[], field: string): string | undefined {
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    return messages.maxLength ?? `${field} has too many entries (at most ${schema.maxItems})`;
  }
  const items = schema.items as Schema | undefined;
  if (items) {
    for (const item of value) {
      const problem = checkValue(items, item, field);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * Every top-level field's first problem. `undefined` and '' count as absent for optional fields; a
 * required field that is absent gets its `required` message.
 */
export function checkFields(schema: Schema, value: Record<string, unknown>): FieldProblems {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const problems: FieldProblems = {};
  for (const [field, fieldSchema] of Object.entries(properties)) {
    const fieldValue = value[field];
    if (fieldValue === undefined) {
      // Ajv fills defaults before checking `required`, so a defaulted field may be left out.
      if (required.has(field) && !('default' in fieldSchema))
        problems[field] = fieldSchema['x-messages']?.required ?? `${field} is required`;
      continue;
    }
    const problem = checkValue(fieldSchema, fieldValue, field);
    if (problem) problems[field] = problem;
  }
  for (const rule of (schema.allOf as Schema[] | undefined) ?? []) applyConditional(rule, value, problems);
  return problems;
}

/** JSON Schema `if`/`then` between fields (e.g. which formats a chart library allows). */
function applyConditional(rule: Schema, value: Record<string, unknown>, problems: FieldProblems) {
  const condition = rule.if as Schema | undefined;
  const consequence = rule.then as Schema | undefined;
  if (!condition || !consequence) return;
  const required = (condition.required as string[] | undefined) ?? [];
  if (required.some((field) => value[field] === undefined)) return;
  const conditionProperties = (condition.properties ?? {}) as Record<string, Schema>;
  const holds = Object.entries(conditionProperties).every(
    ([field, fieldSchema]) => value[field] === undefined || checkValue(fieldSchema, value[field], field) === undefined,
  );
  if (!holds) return;
  for (const [field, fieldSchema] of Object.entries((consequence.properties ?? {}) as Record<string, Schema>)) {
    if (problems[field] || value[field] === undefined) continue;
    const problem = checkValue(fieldSchema, value[field], field);
    if (problem) problems[field] = problem;
  }
}
