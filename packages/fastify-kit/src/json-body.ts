import { AppError, ProblemMessages } from '@render/contracts';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

// secure-json-parse's message for a `__proto__` key or a `constructor.prototype` path.
const PROTOTYPE_KEY = /prototype property/;
/** Methods whose requests carry no body by convention: an empty one sent as JSON is no body, not an error. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/**
 * JSON bodies as Fastify parses them (secure-json-parse, prototype keys refused), but with answers that say
 * what is wrong: Fastify's own parser reports a body with a `__proto__` key as "not valid JSON", which sends
 * the caller looking for a syntax error that is not there.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      // Many HTTP clients label every request JSON, a body-less DELETE included: nothing to parse there.
      if (BODYLESS_METHODS.has(request.method)) return done(null, undefined);
      return done(new AppError('INVALID_JSON', 'Request body is empty: send a JSON object'), undefined);
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const refused = PROTOTYPE_KEY.test((err as Error).message)
        ? new AppError('VALIDATION_ERROR', 'The body may not use "__proto__" or "constructor.prototype" as a key')
        : new AppError('INVALID_JSON', ProblemMessages.invalidJson);
      done(refused, undefined);
    }
  });
}
