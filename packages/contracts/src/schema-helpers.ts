import { type TSchema, type TSchemaOptions, type TUnsafe, Type } from 'typebox';

/**
 * User-facing validation messages travel inside the schema (`x-messages`), so the one error handler can
 * answer with the spec's wording ("Please enter some HTML content") instead of Ajv's, and the OpenAPI
 * document shows the same text.
 */
export type FieldMessages = Partial<Record<'required' | 'type' | 'minLength' | 'maxLength' | 'enum' | 'range' | 'format', string>>;

export const withMessages = <T extends TSchema>(schema: T, messages: FieldMessages): T & { 'x-messages': FieldMessages } =>
  Object.assign(schema, { 'x-messages': messages });

/**
 * A string enum as a plain JSON-schema `enum`, which gives one clear Ajv error instead of an anyOf cascade.
 * TypeBox 1 checks standard keywords itself, so the worker's compiled checks need no registered kind.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, options: TSchemaOptions = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * A whole number within [min, max] whose errors read "<field> must be between …" / "… a whole number …",
 * the wording every bounded integer of the API uses.
 */
export const boundedInteger = (field: string, bounds: { min: number; max: number; default?: number; description?: string }) =>
  withMessages(Type.Integer({ minimum: bounds.min, maximum: bounds.max, default: bounds.default, description: bounds.description }), {
    type: `${field} must be a whole number between ${bounds.min} and ${bounds.max}`,
    range: `${field} must be between ${bounds.min} and ${bounds.max}`,
  });

/** JSON Schema's `if`/`then`: a rule that applies only when `condition` matches (Ajv and the OpenAPI document read it). */
export const conditional = (condition: Record<string, unknown>, consequence: Record<string, unknown>) =>
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a thenable.
  ({ if: condition, then: consequence });

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * TypeBox lists every property of an object as required unless it is wrapped in Optional, and the request
 * schemas keep their defaulted fields un-wrapped so that handlers see them filled in (Ajv applies the
 * defaults). To a client (the OpenAPI document, an MCP tool) such a field is optional: this drops every
 * property that has a `default` from one schema object's `required`, and removes `required` when nothing is
 * left. It changes `node` in place: callers walk a copy.
 */
export function dropDefaultedRequired(node: Record<string, unknown>): void {
  const properties = node.properties;
  if (!isJsonObject(properties) || !Array.isArray(node.required)) return;
  const required = node.required.filter((name) => !(isJsonObject(properties[name]) && 'default' in properties[name]));
  if (required.length > 0) node.required = required;
  else delete node.required;
}
