import { AppError, publicRoute } from '@render/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type AccessGuards, ajvOptions, errorHandler, servedSchema, serveRoute } from '../src/index.ts';

const Greeting = Type.Object({ name: Type.String({ minLength: 2 }) });
const Answer = Type.Object({ success: Type.Literal(true), hello: Type.String() });
const Refused = Type.Object({ success: Type.Literal(false), message: Type.String(), code: Type.String() });

const greet = publicRoute('POST', '/api/greet/:who', 'session', {
  tags: ['test'],
  summary: 'Greets',
  params: Type.Object({ who: Type.String() }),
  body: Greeting,
  response: { 200: Answer, 400: Refused, 401: Refused },
});
const open = publicRoute('GET', '/api/open', 'public', { tags: ['test'], summary: 'Open', response: { 200: Answer } });

/** A session token is `Bearer good`; anything else is refused. */
const guards: AccessGuards = {
  hook: 'onRequest',
  rules: {
    public: null,
    session: async (request) => {
      if (request.headers.authorization !== 'Bearer good') throw new AppError('UNAUTHORIZED', 'Sign in first');
    },
  },
};

let app: FastifyInstance;
afterEach(async () => app?.close());

async function build(register: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  app = Fastify({ ajv: ajvOptions });
  await app.register(errorHandler);
  register(app);
  await app.ready();
  return app;
}

/** The contract's call, `POST /api/greet/x`, with `authorization` and the JSON body `payload`. */
const greetAs = (authorization: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/greet/x', headers: { authorization }, payload });

describe('serveRoute', () => {
  it('serves a contract at its method and path, validating with its schema', async () => {
    await build((app) =>
      serveRoute(app, guards, greet, async (request) => ({ success: true as const, hello: (request.body as { name: string }).name })),
    );
    const ok = await greetAs('Bearer good', { name: 'Ada' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, hello: 'Ada' });
    // Another method or path than the contract's is not served.
    expect((await app.inject({ method: 'PUT', url: '/api/greet/x', headers: { authorization: 'Bearer good' } })).statusCode).toBe(405);
    expect((await app.inject({ method: 'POST', url: '/api/greet', headers: { authorization: 'Bearer good' } })).statusCode).toBe(404);
  });

  it('answers a body that breaks the contract with a 400 naming the field', async () => {
    await build((app) => serveRoute(app, guards, greet, async () => ({ success: true as const, hello: 'never' })));
    const res = await greetAs('Bearer good', { name: 'A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR', errors: [expect.objectContaining({ field: 'name' })] });
  });

  it("runs the access rule's guard before the body is validated", async () => {
    await build((app) => serveRoute(app, guards, greet, async () => ({ success: true as const, hello: 'never' })));
    const res = await app.inject({ method: 'POST', url: '/api/greet/x', payload: { name: 'A' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  });

  it('serves a route whose rule needs no guard to anyone', async () => {
    await build((app) => serveRoute(app, guards, open, async () => ({ success: true as const, hello: 'all' })));
    expect((await app.inject({ method: 'GET', url: '/api/open' })).json()).toEqual({ success: true, hello: 'all' });
  });

  it('refuses to start a service that has not said how to check a rule', async () => {
    const admin = publicRoute('GET', '/api/admin/x', 'admin', { tags: ['test'], summary: 'Admin', response: { 200: Answer } });
    await expect(build((app) => serveRoute(app, guards, admin, async () => ({ success: true as const, hello: 'x' })))).rejects.toThrow(
      /no guard for access "admin"/,
    );
  });

  it('serialises only successes with the contract: error answers keep every field of the problem body', async () => {
    expect(Object.keys(servedSchema(greet.schema).response ?? {})).toEqual(['200']);
    await build((app) => serveRoute(app, guards, greet, async () => ({ success: true as const, hello: 'never' })));
    const res = await app.inject({ method: 'POST', url: '/api/greet/x', payload: {} });
    // The contract's 401 schema has three fields; the problem body has its RFC 9457 ones too.
    expect(res.json()).toHaveProperty('requestId');
  });
});
