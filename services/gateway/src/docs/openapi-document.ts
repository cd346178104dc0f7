import { ErrorResponse } from '@render/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * TypeBox lists every property of an object as required unless it is wrapped in Optional, and the request
 * schemas keep their defaulted fields un-wrapped so that handlers see them filled in (Ajv applies the
 * defaults). To a client such a field is optional: this drops every property that has a `default` from its
 * object's `required`, throughout the document, and removes `required` when nothing is left. It works on a
 * copy: the document shares its schema objects with the routes' validators and the contracts.
 */
export function optionalDefaults<T>(source: T): T {
  const document = JSON.parse(JSON.stringify(source)) as T;
  const seen = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    const properties = node.properties;
    if (isObject(properties) && Array.isArray(node.required)) {
      const required = node.required.filter((name) => !(isObject(properties[name]) && 'default' in properties[name]));
      if (required.length > 0) node.required = required;
      else delete node.required;
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(document);
  return document;
}

/** The one error body (contracts' `ErrorResponse`), as the document shows it. */
const ERROR_SCHEMA = (() => {
  const { $id: _, ...schema } = JSON.parse(JSON.stringify(ErrorResponse)) as Json;
  return schema;
})();

const PROBLEM = 'application/problem+json';

// What the gateway itself answers for any body before a route sees it: unparsable JSON or a failed schema
// check (400), a body over the limit (413), a content type other than JSON (415).
const BODY_ERRORS: Record<string, string> = {
  400: 'Invalid JSON or a field that breaks the rules; `message` names it',
  413: 'Request body too large',
  415: 'Content-Type other than application/json',
};

/** Adds the statuses every operation with a request body can answer, where a route does not list them itself. */
export function bodyErrorResponses<T>(document: T): T {
  const paths = (document as Json).paths;
  if (!isObject(paths)) return document;
  for (const methods of Object.values(paths)) {
    if (!isObject(methods)) continue;
    for (const operation of Object.values(methods)) {
      if (!isObject(operation) || !operation.requestBody) continue;
      const responses = isObject(operation.responses) ? operation.responses : {};
      for (const [status, description] of Object.entries(BODY_ERRORS)) {
        responses[status] ??= { description, content: { [PROBLEM]: { schema: ERROR_SCHEMA } } };
      }
      operation.responses = responses;
    }
  }
  return document;
}

/**
 * Error answers are RFC 9457 problems (`application/problem+json`): the routes declare their error bodies with
 * the contracts' schemas, which Fastify's swagger lists as application/json; this moves every 4xx and 5xx
 * JSON body to the problem media type.
 */
export function problemResponses<T>(document: T): T {
  const paths = (document as Json).paths;
  if (!isObject(paths)) return document;
  for (const methods of Object.values(paths)) {
    if (!isObject(methods)) continue;
    for (const operation of Object.values(methods)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || !isObject(response) || !isObject(response.content)) continue;
        const json = response.content['application/json'];
        if (json === undefined) continue;
        const { 'application/json': _, ...others } = response.content;
        response.content = { [PROBLEM]: json, ...others };
      }
    }
  }
  return document;
}
