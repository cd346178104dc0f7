import { AppError, type ErrorCode, ErrorCodes, type FieldMessages, ProblemMessages } from '@render/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { type AjvError, bodyFieldErrors, fieldName } from './field-errors.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { type ProblemOptions, sendProblem } from './problem.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/** The schema of the field an Ajv error is about (needs Ajv `verbose: true`). */
const fieldSchema = (err: AjvError): Record<string, unknown> | undefined => {
  if (err.keyword === 'required') {
    const props = err.parentSchema?.properties as Record<string, Record<string, unknown>> | undefined;
    return props?.[String(err.params.missingProperty)];
  }
  return err.parentSchema;
};

/** Turns Ajv's first error into one sentence a person can act on, preferring the schema's own wording. */
export function validationMessage(errors: AjvError[], context: string): string {
  const err = errors[0];
  if (!err) return 'Invalid request';
  const field = fieldName(err);
  const schema = fieldSchema(err);
  const messages = (schema?.['x-messages'] ?? {}) as FieldMessages;
  if (err.keyword === 'type' && err.instancePath === '') return 'Request body must be a JSON object';
  switch (err.keyword) {
    case 'required':
      return messages.required ?? `${field} is required`;
    case 'type':
      return messages.type ?? `${field} must be ${String(err.params.type)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return messages.range ?? `${field} ${err.message ?? 'is out of range'}`;
    case 'minLength':
      return messages.minLength ?? `${field} must not be empty`;
    case 'maxLength':
      return messages.maxLength ?? `${field} is too long`;
    case 'enum':
      return messages.enum ?? `${field} must be one of: ${((err.params.allowedValues as unknown[]) ?? []).join(', ')}`;
    case 'format':
    case 'pattern':
      return messages.format ?? `${field} has an invalid format`;
    case 'maxItems':
    case 'maxProperties':
      return messages.maxLength ?? `${field} has too many entries (at most ${String(err.params.limit)})`;
    default:
      return `${field} ${err.message ?? 'is invalid'} (${context})`;
  }
}

// Postgres refuses U+0000 in text ("invalid byte sequence", "unsupported Unicode escape"). Contracts refuse
// it before a query is made; this keeps any field they miss a 400 rather than a 500.
const POSTGRES_NUL_ERRORS = new Set(['22021', '22P05']);
const isPostgresNulError = (err: unknown) =>
  typeof (err as { code?: unknown }).code === 'string' && POSTGRES_NUL_ERRORS.has((err as { code: string }).code);

// A database (or another service's connection) that is down or restarting: refused or cut connections,
// Postgres shutting down or starting up (class 57P), connection exceptions (class 08). The caller can
// retry shortly, so this is a 503 and not a 500 (which would read as a bug).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated unexpectedly$/,
  /^Connection terminated due to connection timeout$/,
  /^timeout exceeded when trying to connect$/,
];
const isDependencyUnavailable = (err: unknown): boolean => {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
};

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const send = (reply: FastifyReply, status: number, code: string, message: string, options?: ProblemOptions) =>
  sendProblem(reply, status, code, message, options);

/** The refused fields of a schema validation error: every top-level field of a body, else the first error. */
function validationErrors(request: FastifyRequest, errors: AjvError[], context: string) {
  const describe = (list: AjvError[]) => validationMessage(list, context);
  const schema = context === 'body' ? request.routeOptions.schema?.body : undefined;
  return bodyFieldErrors(schema, context === 'body' ? request.body : undefined, errors, describe);
}

/**
 * The single error handler: AppErrors keep their code and status, Fastify's own client errors (bad JSON,
 * body too large, wrong content type, schema validation) become 4xx with a clear message, and anything
 * else is a 500 whose message is logged but never sent. Every answer is an RFC 9457 problem (`sendProblem`),
 * and every answer, errors included, carries the request's `X-Request-Id`.
 */
async function errorHandlerPlugin(app: FastifyInstance) {
  // JSON bodies are parsed here too, so that what is wrong with one is answered like any other error.
  registerJsonBodyParser(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.warn({ code: error.code }, error.message);
      // Back-pressure answers (a full queue, a limit) say when to come back.
      if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
      return send(reply, error.statusCode, error.code, error.message, { fieldErrors: error.fieldErrors });
    }
    const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
    if (fe.validation) {
      const context = fe.validationContext ?? 'body';
      return send(reply, 400, 'VALIDATION_ERROR', validationMessage(fe.validation, context), {
        fieldErrors: validationErrors(request, fe.validation, context),
      });
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(
          reply,
          400,
          'INVALID_JSON',
          fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Request body is empty: send a JSON object' : ProblemMessages.invalidJson,
        );
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, 'PAYLOAD_TOO_LARGE', `Request body is too large (limit ${reply.server.initialConfig.bodyLimit} bytes)`);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type: send application/json');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, 400, 'VALIDATION_ERROR', 'Request body length does not match Content-Length');
    }
    if (isPostgresNulError(error)) return send(reply, 400, 'VALIDATION_ERROR', 'Text must not contain NUL (U+0000) characters');
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      const code: ErrorCode = fe.statusCode === 429 ? 'RATE_LIMITED' : fe.statusCode === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
      return send(reply, fe.statusCode, code, fe.message || 'Bad request');
    }
    if (isDependencyUnavailable(error)) {
      request.log.warn({ err: (error as Error).message, code: (error as { code?: unknown }).code }, 'dependency unavailable');
      return send(
        reply.header('Retry-After', '1'),
        503,
        'SERVICE_UNAVAILABLE',
        'The service is temporarily unavailable; please retry shortly',
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, ErrorCodes.INTERNAL_ERROR, 'INTERNAL_ERROR', ProblemMessages.unexpected);
  });

  // A path that exists under other methods is a 405 with Allow, as HTTP asks, not a 404: Fastify's router
  // only knows "no route", so the routes are mirrored into a second router that is asked by method.
  const routes = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 100_000 });
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m): m is HTTPMethod =>
      METHODS.includes(m as HTTPMethod),
    );
    for (const method of methods) {
      if (!routes.hasRoute(method, route.url)) routes.on(method, route.url, () => undefined);
    }
  });

  // A service that also serves pages (the gateway and its web app) answers unknown GETs outside /api with them.
  let pageFallback: PageFallback | undefined;
  app.decorate('setPageFallback', (fallback: PageFallback) => {
    pageFallback = fallback;
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (pageFallback && (request.method === 'GET' || request.method === 'HEAD') && path !== '/api' && !path.startsWith('/api/')) {
      return pageFallback(request, reply);
    }
    const allowed = METHODS.filter((method) => method !== request.method && routes.find(method, path) !== null);
    if (allowed.length > 0) {
      return send(
        reply.header('Allow', allowed.join(', ')),
        405,
        'METHOD_NOT_ALLOWED',
        `Method ${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`,
      );
    }
    return send(reply, 404, 'NOT_FOUND', `Route ${request.method} ${path} not found`);
  });
}

export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers GET/HEAD requests no route matched, outside /api, with `fallback` (a client-routed app's page). */
    setPageFallback(fallback: PageFallback): void;
  }
}

export default fp(errorHandlerPlugin, { name: 'error-handler', fastify: '5.x' });
