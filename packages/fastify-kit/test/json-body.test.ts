import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../src/index.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({ bodyLimit: 1024 });
  await app.register(errorHandler);
  app.delete('/things/:id', async (request) => ({ deleted: (request.params as { id: string }).id, body: request.body ?? null }));
  app.post('/echo', async (request) => ({ body: request.body, polluted: ({} as Record<string, unknown>).polluted ?? null }));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const post = (payload: string, contentType = 'application/json') =>
  app.inject({ method: 'POST', url: '/echo', payload, headers: { 'content-type': contentType } });

describe('JSON bodies', () => {
  it('are parsed as before, charset or not', async () => {
    const res = await post('{"a":[1,{"b":"c"}]}', 'application/json; charset=utf-8');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: { a: [1, { b: 'c' }] }, polluted: null });
  });

  it('with a __proto__ key or a constructor.prototype path: a 400 that names the key, not "Invalid JSON"', async () => {
    for (const payload of [
      '{"__proto__":{"polluted":1}}',
      '{"a":{"b":{"__proto__":{"polluted":1}}}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
    ]) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'The body may not use "__proto__" or "constructor.prototype" as a key',
      });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('that are not JSON, empty, or too large keep their answers', async () => {
    const bad = await post('{"a":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_JSON', message: 'Invalid JSON format' });
    const empty = await post('  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'INVALID_JSON', message: 'Request body is empty: send a JSON object' });
    const large = await post(JSON.stringify({ text: 'x'.repeat(2000) }));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an empty body labelled JSON on a DELETE is no body (clients that label every request JSON), not a 400', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/things/7', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: '7', body: null });
    // A DELETE that does send JSON is still parsed, and checked as any body is.
    const bad = await app.inject({ method: 'DELETE', url: '/things/7', payload: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_JSON' });
  });

  it('a "constructor" key that is plain data is accepted', async () => {
    const res = await post('{"constructor":"Acme Ltd","prototype":1}');
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual({ constructor: 'Acme Ltd', prototype: 1 });
  });
});
