import fc from 'fast-check';

/** A JSON Schema node of the OpenAPI document, loosely typed: the document is data read over HTTP. */
export type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Inlines every local `$ref` (`#/components/schemas/…`), so schemas can be validated and generated alone. */
export function inlineRefs<T>(node: T, document: Schema, depth = 0): T {
  if (depth > 40) throw new Error('$ref nesting too deep');
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, document, depth + 1)) as T;
  if (!isSchema(node)) return node;
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (isSchema(at) ? at[key] : undefined), document);
    if (!isSchema(target)) throw new Error(`unresolved $ref ${node.$ref}`);
    return inlineRefs(target, document, depth + 1) as T;
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlineRefs(value, document, depth + 1)])) as T;
}

/** Values of every JSON type that commonly break servers: wrong types, edge numbers, hostile strings. */
export const hostileValue: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '../../../../etc/passwd',
  '%2e%2e%2f%2e%2e%2finternal',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally.
  '{{7*7}}${7*7}',
  "' OR 1=1 --",
  '\uD800',
  '🙂'.repeat(50),
  'x'.repeat(70_000),
  [],
  [null],
  {},
  { __proto__x: 1, constructor: { prototype: { polluted: true } } },
);

interface GenerateOptions {
  /** Overrides by property name (e.g. `url`: only addresses that cannot leave the machine). */
  byName?: Record<string, fc.Arbitrary<unknown>>;
  depth?: number;
}

const boundedLength = (schema: Schema, cap: number) => {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, Math.max(min, cap)) : Math.max(min, cap);
  return { minLength: min, maxLength: max };
};

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string') {
    const { minLength, maxLength } = boundedLength(schema, 200);
    const pattern = new RegExp(schema.pattern, 'u');
    return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  const { minLength, maxLength } = boundedLength(schema, 30);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength: Math.max(minLength, maxLength), maxLength }) },
  );
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max));
}

function objectArbitrary(schema: Schema, options: GenerateOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    model[name] = options.byName?.[name] ?? schemaArbitrary(property as Schema, options, depth + 1);
  }
  const record = fc.record(model, { requiredKeys: required.filter((name) => name in model) });
  if (!isSchema(schema.additionalProperties) || depth > 2) return record;
  const extra = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !(key in properties)),
    schemaArbitrary(schema.additionalProperties, options, depth + 1),
    { maxKeys: 3 },
  );
  return fc.tuple(record, extra).map(([fixed, more]) => ({ ...more, ...fixed }));
}

/**
 * Values the schema describes (best effort: enough to reach past validation into the handlers). Lengths are
 * capped so a run stays fast; `x-…` keywords are ignored.
 */
export function schemaArbitrary(schema: Schema, options: GenerateOptions = {}, depth = options.depth ?? 0): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((branch) => schemaArbitrary(branch, options, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = isSchema(schema.items) ? schemaArbitrary(schema.items, options, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(Number(schema.maxItems ?? 4), 4)) });
    }
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      // No type: anything JSON (chart data and options are like that).
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 3 });
  }
}

/**
 * One hostile change to an otherwise generated object: a field dropped, a field of the wrong type or
 * with a hostile value, or an unknown field added.
 */
export function mutatedObject(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), hostileValue, fc.constantFrom('drop', 'replace', 'add')).map(([value, index, hostile, how]) => {
    if (!isSchema(value)) return hostile;
    const copy: Record<string, unknown> = { ...value };
    const keys = Object.keys(copy);
    const key = keys.length > 0 ? (keys[index % keys.length] as string) : 'unexpected';
    if (how === 'drop') delete copy[key];
    else if (how === 'replace') copy[key] = hostile;
    else copy[`x${index}`] = hostile;
    return copy;
  });
}
