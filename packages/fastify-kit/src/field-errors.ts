import type { FieldError } from '@render/contracts';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { ajvOptions } from './ajv.ts';

/** An Ajv error as Fastify hands it over (with `verbose: true`, the failing schema comes along). */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
  parentSchema?: Record<string, unknown>;
}

type Schema = Record<string, unknown>;
type Describe = (errors: AjvError[]) => string;

// ajv-formats is CommonJS: through Node's ESM interop its default export is the plugin itself.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

/**
 * Ajv stops at the first error (`allErrors: false`, as Fastify advises: with every error collected, a body of
 * a million wrong array items makes a million error objects). To still name every refused field, a refused
 * body's top-level fields are checked again one by one, each by its own validator that also stops at its
 * first error: one error per field, at a cost bounded by the schema's fields, only on the error path.
 */
const ajv = new Ajv({ ...ajvOptions.customOptions, allErrors: false, strict: false, addUsedSchema: false });
addFormats(ajv);
const validators = new WeakMap<object, ValidateFunction | null>();

function validatorOf(schema: Schema): ValidateFunction | null {
  let validate = validators.get(schema);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch {
      // A schema this instance cannot compile alone (a $ref to a shared schema): the field is not listed again.
      validate = null;
    }
    validators.set(schema, validate);
  }
  return validate;
}

export const fieldName = (err: AjvError): string => {
  if (err.keyword === 'required') return String(err.params.missingProperty);
  const path = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path || 'body';
};

/** Where an error is, as a path (`clip.x`): the list's `field`, which also names a missing or unknown property. */
export const fieldPath = (err: AjvError): string => {
  const path = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const property =
    err.keyword === 'required'
      ? err.params.missingProperty
      : err.keyword === 'additionalProperties'
        ? err.params.additionalProperty
        : undefined;
  if (property !== undefined) return path ? `${path}.${String(property)}` : String(property);
  return path || 'body';
};

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every refused field of a body: the first error Fastify found (`first`, described as `message` is), then one
 * error for each other top-level field that breaks its schema or is missing. A schema that is not a plain
 * object of properties (a union) gives the first error only.
 */
export function bodyFieldErrors(schema: unknown, body: unknown, first: AjvError[], describe: Describe): FieldError[] {
  const head = first[0];
  const firstError: FieldError = { field: head ? fieldPath(head) : 'body', message: describe(first) };
  if (!isObject(schema) || !isObject(schema.properties) || !isObject(body)) return [firstError];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const list: FieldError[] = [firstError];
  const add = (error: FieldError) => {
    if (!list.some((known) => known.field === error.field)) list.push(error);
  };
  for (const [name, sub] of Object.entries(schema.properties)) {
    const value = body[name];
    if (value === undefined) {
      if (required.has(name)) add({ field: name, message: describe([missing(name, schema)]) });
      continue;
    }
    const validate = isObject(sub) ? validatorOf(sub) : null;
    if (!validate || validate(value)) continue;
    const errors = ((validate.errors ?? []) as AjvError[]).map((err) => ({ ...err, instancePath: `/${name}${err.instancePath}` }));
    if (errors[0]) add({ field: fieldPath(errors[0]), message: describe(errors) });
  }
  if (schema.additionalProperties === false) {
    for (const name of Object.keys(body)) {
      if (!Object.hasOwn(schema.properties, name)) add({ field: name, message: `${name} is not a known field` });
    }
  }
  return list;
}

const missing = (name: string, parentSchema: Schema): AjvError => ({
  keyword: 'required',
  instancePath: '',
  params: { missingProperty: name },
  parentSchema,
});
