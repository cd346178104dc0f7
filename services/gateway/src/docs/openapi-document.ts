import { dropDefaultedRequired, ErrorResponse } from '@render/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every defaulted property optional to a client, throughout the document (contracts' `dropDefaultedRequired`).
 * It works on a copy: the document shares its schema objects with the routes' validators and the contracts.
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
    dropDefaultedRequired(node);
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

/** Calls `change` with every operation of the document (each method of each path), which it may change in place. */
function eachOperation<T>(document: T, change: (operation: Json) => void): T {
  const paths = (document as Json).paths;
  if (!isObject(paths)) return document;
  for (const methods of Object.values(paths)) {
    if (!isObject(methods)) continue;
    for (const operation of Object.values(methods)) if (isObject(operation)) change(operation);
  }
  return document;
}

/** Adds the statuses every operation with a request body can answer, where a route does not list them itself. */
export const bodyErrorResponses = <T>(document: T): T =>
  eachOperation(document, (operation) => {
    if (!operation.requestBody) return;
    const responses = isObject(operation.responses) ? operation.responses : {};
    for (const [status, description] of Object.entries(BODY_ERRORS)) {
      responses[status] ??= { description, content: { [PROBLEM]: { schema: ERROR_SCHEMA } } };
    }
    operation.responses = responses;
  });

/**
 * Error answers are RFC 9457 problems (`application/problem+json`): the routes declare their error bodies with
 * the contracts' schemas, which Fastify's swagger lists as application/json; this moves every 4xx and 5xx
 * JSON body to the problem media type.
 */
export const problemResponses = <T>(document: T): T =>
  eachOperation(document, (operation) => {
    if (!isObject(operation.responses)) return;
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) < 400 || !isObject(response) || !isObject(response.content)) continue;
      const json = response.content['application/json'];
      if (json === undefined) continue;
      const { 'application/json': _, ...others } = response.content;
      response.content = { [PROBLEM]: json, ...others };
    }
  });
