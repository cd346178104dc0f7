/**
 * Reads the generated OpenAPI document (src/generated/openapi.json, exported from the gateway's own
 * schemas at build time) into what the docs page shows: operations, field tables and example bodies.
 */
import { type OperationAccess, operationAccess } from '@render/contracts';

export type JsonSchema = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
export interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, unknown>>;
  requestBody?: {
    content?: Record<string, { schema?: JsonSchema; example?: unknown; examples?: Record<string, { summary?: string; value?: unknown }> }>;
  };
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }>;
  responses?: Record<string, { description?: string }>;
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  defaultValue?: string;
  /** Bounds as "50–4000", "≥ 1 character", "one of png, jpeg". */
  bounds?: string;
  description?: string;
}

export interface OperationView {
  method: string;
  path: string;
  operation: Operation;
}

export function resolve(schema: JsonSchema | undefined, doc: OpenApiDocument): JsonSchema {
  let current = schema ?? {};
  for (let depth = 0; typeof current.$ref === 'string' && depth < 10; depth++) {
    const name = current.$ref.split('/').pop() ?? '';
    current = doc.components?.schemas?.[name] ?? {};
  }
  return current;
}

export function typeLabel(schema: JsonSchema, doc: OpenApiDocument): string {
  const resolved = resolve(schema, doc);
  const variants = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (variants) return [...new Set(variants.map((variant) => typeLabel(variant, doc)))].join(' | ');
  if (Array.isArray(resolved.type)) return resolved.type.join(' | ');
  if (resolved.type === 'array') return `array<${typeLabel((resolved.items as JsonSchema) ?? {}, doc)}>`;
  if (typeof resolved.type === 'string') return resolved.type;
  if (resolved.enum) return 'string';
  if (resolved.properties) return 'object';
  return 'any';
}

const quoteList = (values: unknown[]) => values.map((value) => String(value)).join(', ');

export function boundsLabel(
  schema: JsonSchema,
  doc: OpenApiDocument,
  t: (key: string, values?: Record<string, unknown>) => string,
): string | undefined {
  const resolved = resolve(schema, doc);
  const parts: string[] = [];
  const variants = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    const inner = variants.map((variant) => boundsLabel(variant, doc, t)).filter(Boolean);
    return inner.length ? inner.join('; ') : undefined;
  }
  if (Array.isArray(resolved.enum)) parts.push(t('bounds.oneOf', { values: quoteList(resolved.enum) }));
  if (typeof resolved.minimum === 'number' && typeof resolved.maximum === 'number') {
    parts.push(t('bounds.range', { min: resolved.minimum, max: resolved.maximum }));
  } else if (typeof resolved.minimum === 'number') parts.push(t('bounds.min', { min: resolved.minimum }));
  else if (typeof resolved.maximum === 'number') parts.push(t('bounds.max', { max: resolved.maximum }));
  if (typeof resolved.maxLength === 'number') parts.push(t('bounds.maxLength', { count: resolved.maxLength }));
  if (typeof resolved.minLength === 'number' && resolved.minLength > 0) parts.push(t('bounds.minLength', { count: resolved.minLength }));
  if (typeof resolved.maxItems === 'number') parts.push(t('bounds.maxItems', { count: resolved.maxItems }));
  if (typeof resolved.format === 'string') parts.push(t('bounds.format', { format: resolved.format }));
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * The rows of a body's field table: every property, required first, in the document's order. A property
 * that is an object with fields of its own (a PDF's `margin`) is followed by a row per field, named
 * `margin.top`.
 */
export function fieldRows(
  schema: JsonSchema | undefined,
  doc: OpenApiDocument,
  t: (key: string, values?: Record<string, unknown>) => string,
): FieldRow[] {
  const rows = objectRows(resolve(schema, doc), doc, t, '');
  return rows.sort((a, b) => Number(b.required) - Number(a.required));
}

function objectRows(
  resolved: JsonSchema,
  doc: OpenApiDocument,
  t: (key: string, values?: Record<string, unknown>) => string,
  prefix: string,
): FieldRow[] {
  const required = new Set((resolved.required as string[] | undefined) ?? []);
  return Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>).flatMap(([name, property]) => {
    const field = resolve(property, doc);
    const row = {
      name: `${prefix}${name}`,
      type: typeLabel(field, doc),
      // The exported document marks defaulted fields optional already (the server fills them in).
      required: required.has(name),
      defaultValue: 'default' in field ? JSON.stringify(field.default) : undefined,
      bounds: boundsLabel(field, doc, t),
      description: typeof field.description === 'string' ? field.description : undefined,
    } satisfies FieldRow;
    const nested = field.type === 'object' && field.properties && prefix === '' ? objectRows(field, doc, t, `${name}.`) : [];
    return [row, ...nested];
  });
}

export const jsonBodySchema = (operation: Operation) => operation.requestBody?.content?.['application/json']?.schema;

/** The operations whose path matches, in document order. */
export function operationsFor(doc: OpenApiDocument, match: (path: string, operation: Operation) => boolean): OperationView[] {
  const views: OperationView[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (match(path, operation)) views.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return views;
}

/** Who may call it, from its security requirements (an empty one among them: credentials optional). */
export const accessOf = (operation: Operation): OperationAccess => operationAccess(operation.security);

export interface NamedExample {
  /** `default` for an operation's main example, else the further example's key (`pdf`). */
  key: string;
  /** What a further example shows ("PDF"); absent for the main one. */
  name?: string;
  body: Record<string, unknown>;
}

/**
 * The example bodies the document carries for an operation (the gateway's example calls): its one
 * `example`, or its named `examples`, main one first.
 */
export function examplesOf(doc: OpenApiDocument, method: string, path: string): NamedExample[] {
  const content = doc.paths[path]?.[method]?.requestBody?.content?.['application/json'];
  if (!content) return [];
  if (content.example !== undefined) return [{ key: 'default', body: content.example as Record<string, unknown> }];
  return Object.entries(content.examples ?? {})
    .filter(([, example]) => example.value !== undefined)
    .map(([key, example]) => ({
      key,
      ...(key === 'default' ? {} : { name: example.summary ?? key }),
      body: example.value as Record<string, unknown>,
    }))
    .sort((a, b) => Number(b.key === 'default') - Number(a.key === 'default'));
}

/** The main example body of an operation. */
export const exampleOf = (doc: OpenApiDocument, method: string, path: string) => examplesOf(doc, method, path)[0]?.body;
